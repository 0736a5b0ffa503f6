/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Global syncer of a training job (Horovod's coordinator): it holds the
 * transmission queue of ready buffers and starts one buffer's collective at a
 * time on all workers (ring-allreduce, parameter servers: ddnn-collective.h),
 * only when every worker has finished the previous buffer and the
 * buffer is ready on every worker. Among the buffers ready everywhere it picks
 * by policy: FIFO (the order they became ready everywhere) or PRIORITY (oldest
 * iteration first, then lowest layer index). It records every buffer's ready,
 * start and end times.
 */
#ifndef DDNN_SYNCER_H
#define DDNN_SYNCER_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef enum
    {
        DDNN_QUEUE_FIFO = 0,
        DDNN_QUEUE_PRIORITY = 1
    } ddnn_queue_policy;

    typedef struct ddnn_syncer ddnn_syncer; /* opaque */

    typedef struct
    {
        uint32_t workers;
        uint32_t buffers;
        const uint32_t* buffer_lowest; /* [buffers] -> lowest layer index (the priority), copied */
        ddnn_queue_policy policy;
    } ddnn_syncer_config;

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the syncer call that triggered it
         * returns at once (the event stays recorded). */
        /* Start the collective of (iteration, buffer) on every worker now. */
        int (*start)(void* ctx, uint32_t iteration, uint32_t buffer);
        /* Every worker finished (iteration, buffer): its gradients are there. */
        int (*finished)(void* ctx, uint32_t iteration, uint32_t buffer);
    } ddnn_syncer_callbacks;

    /* Zeroes *cb (every callback NULL), for hosts that then set the callbacks by name (C++17,
     * which ns-3.37 uses, has no designated initializers). */
    void ddnn_syncer_callbacks_init(ddnn_syncer_callbacks* cb);

    /* One buffer's collective, with times in ns (end is 0 while it runs). */
    typedef struct
    {
        uint32_t iteration;
        uint32_t buffer;
        uint64_t ready_ns; /* ready on the last worker */
        uint64_t start_ns;
        uint64_t end_ns;
    } ddnn_syncer_record;

    int ddnn_syncer_new(ddnn_syncer** out,
                        const ddnn_syncer_config* cfg,
                        const ddnn_syncer_callbacks* cb,
                        void* ctx);
    void ddnn_syncer_free(ddnn_syncer* s);

    /* A worker's buffer became ready. */
    int ddnn_syncer_on_ready(
        ddnn_syncer* s, uint32_t worker, uint32_t iteration, uint32_t buffer, uint64_t now_ns);
    /* A worker finished the buffer in flight. */
    int ddnn_syncer_on_done(ddnn_syncer* s, uint32_t worker, uint64_t now_ns);

    size_t ddnn_syncer_record_count(const ddnn_syncer* s);
    const ddnn_syncer_record* ddnn_syncer_record_at(const ddnn_syncer* s, size_t i);
    /* 1 while a buffer is in flight; then *iteration and *buffer name it. */
    int ddnn_syncer_in_flight(const ddnn_syncer* s, uint32_t* iteration, uint32_t* buffer);
    /* Whether `worker` has finished the buffer in flight. */
    int ddnn_syncer_worker_done(const ddnn_syncer* s, uint32_t worker);
    /* Buffers waiting in the queue (ready on at least one worker, not started). */
    size_t ddnn_syncer_queued(const ddnn_syncer* s);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_SYNCER_H */
