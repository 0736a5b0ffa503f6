/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network syncer: Horovod's coordinator as a state machine, for runs where the workers'
 * syncing travels over the simulated network instead of happening at once (ddnn-syncer.h,
 * the thesis's model). No sockets, no clock: time is an argument, and the host moves the
 * messages and calls wake() when the time a call asked for comes.
 *
 * Each worker reports to the coordinator (a worker, as Horovod's rank 0) with small messages:
 * READY when one of its fusion buffers is ready, DONE when it finished the buffer in flight.
 * The coordinator keeps what arrives during a cycle and, at the cycle's end (the next multiple
 * of cycle_ns; Horovod's cycle time), hands it to the same transmission queue as the instant
 * syncer (FIFO or by layer, one buffer in flight, a buffer started once it is ready on every
 * worker and every worker finished the previous one); a buffer the queue starts goes out as a
 * START response to every worker, which starts its collective when the response arrives. A
 * cycle that received nothing does nothing (no message, no wake-up).
 *
 * So a buffer starts one coordination latency after the instant syncer would start it: the
 * last report's trip to the coordinator, the wait for the cycle's end, and the response's
 * trip back.
 */
#ifndef DDNN_NETWORK_SYNCER_H
#define DDNN_NETWORK_SYNCER_H

#include "ddnn-error.h"
#include "ddnn-syncer.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* wake()'s "no time wanted". */
#define DDNN_NSYNC_NEVER INT64_MAX

    typedef enum
    {
        DDNN_NSYNC_READY = 1, /* (iteration, buffer) is ready on the reporting worker */
        DDNN_NSYNC_DONE = 2   /* the reporting worker finished the buffer in flight */
    } ddnn_nsync_report;

    typedef struct
    {
        ddnn_syncer_config queue; /* workers, buffers, their lowest layers, the policy */
        int64_t cycle_ns;         /* > 0 */
        uint32_t report_bytes;    /* a report's size on the wire, for the count of bytes */
        uint32_t response_bytes;  /* a response's */
    } ddnn_nsync_config;

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the call that triggered it returns. */
        /* Send START (iteration, buffer) to worker `worker` (the coordinator's own worker
         * too: its host delivers that one without the network). */
        int (*send_start)(void* ctx, uint32_t worker, uint32_t iteration, uint32_t buffer);
        /* The coordinator heard every worker's DONE of (iteration, buffer). May be NULL. */
        int (*finished)(void* ctx, uint32_t iteration, uint32_t buffer);
    } ddnn_nsync_callbacks;

    void ddnn_nsync_callbacks_init(ddnn_nsync_callbacks* cb);

    typedef struct
    {
        uint64_t reports;   /* reports received */
        uint64_t responses; /* START messages sent, one per worker per buffer */
        uint64_t cycles;    /* cycles that had reports to hand over */
        uint64_t bytes;     /* control bytes: reports received and responses sent */
    } ddnn_nsync_stats;

    typedef struct ddnn_nsync ddnn_nsync; /* opaque */

    /* DDNN_ERR_INVALID for a NULL argument, a missing send_start, a cycle_ns below 1 or a
     * queue configuration ddnn_syncer_new refuses. */
    int ddnn_nsync_new(ddnn_nsync** out,
                       const ddnn_nsync_config* cfg,
                       const ddnn_nsync_callbacks* cb,
                       void* ctx);
    void ddnn_nsync_free(ddnn_nsync* n);
    /*
     * Worker `worker`'s report arrived at `now_ns` (iteration and buffer name the ready buffer;
     * DONE ignores them). It is kept until the cycle ends: *next_ns is when wake() is wanted.
     * DDNN_ERR_RANGE for a worker or buffer out of range or an unknown kind; a time before an
     * earlier call's is DDNN_ERR_STATE.
     */
    int ddnn_nsync_on_report(ddnn_nsync* n,
                             int64_t now_ns,
                             uint32_t worker,
                             ddnn_nsync_report kind,
                             uint32_t iteration,
                             uint32_t buffer,
                             int64_t* next_ns);
    /* Ends the cycles up to `now_ns`: the reports kept go to the queue, in their order of
     * arrival, and what it starts goes out. *next_ns as for on_report. */
    int ddnn_nsync_wake(ddnn_nsync* n, int64_t now_ns, int64_t* next_ns);
    void ddnn_nsync_get_stats(const ddnn_nsync* n, ddnn_nsync_stats* out);
    /* The queue's records (ready, start and end as the coordinator saw them). */
    const ddnn_syncer* ddnn_nsync_queue(const ddnn_nsync* n);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_NETWORK_SYNCER_H */
