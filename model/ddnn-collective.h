/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A collective operation over the workers of one job, run for one fusion
 * buffer at a time on every worker: what bytes each worker sends to which
 * peer, and when it has the buffer's result. Ring-allreduce (ddnn-ring.c) is
 * one implementation; the training loop and the syncer never see which one
 * runs, and the host only moves the bytes the collective asks it to move.
 *
 * An implementation is an operations table (ddnn_collective_ops) in its own
 * file, registered by name: a built-in one by its line in ddnn-collective-builtin.c,
 * any other (a program's own, against the installed module) by ddnn_collective_register.
 */
#ifndef DDNN_COLLECTIVE_H
#define DDNN_COLLECTIVE_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /*
     * The ranks of a collective are its N workers, 0..N-1 (they compute), and with dedicated
     * parameter servers the P server hosts after them, N..N+P-1 (they do not compute; only the
     * parameter-server collective has them, others reject those ranks).
     */
    typedef struct ddnn_collective_config
    {
        uint32_t workers;   /* N >= 2 */
        uint32_t rank;      /* this rank, 0..ddnn_collective_ranks(cfg)-1 */
        uint32_t servers;   /* parameter servers P (parameter-server only): co-located, 1..N
                               (0: N); dedicated, >= 1 */
        uint32_t dedicated; /* 1: the P servers are hosts of their own, ranks N..N+P-1; 0: they
                               are workers 0..P-1 (parameter-server only) */
        uint32_t group_distribution; /* 1: the distribution phase hands the bytes every peer
                                        gets alike to send_group once (a multicast); only a
                                        collective whose ops allow it */
    } ddnn_collective_config;

    /* Ranks taking part: N, plus P when the servers are dedicated hosts. */
    uint32_t ddnn_collective_ranks(const ddnn_collective_config* cfg);

    /*
     * A peer that is no rank: the network element the job's workers share (the switch that
     * aggregates, for in-network aggregation). A collective whose ops say network_peer lists
     * it among its peers; the host's transport runs the element's protocol and reports what
     * the element sends back as bytes from this peer.
     */
#define DDNN_PEER_NETWORK UINT32_MAX

    /* The two phases of a collective (Network Evolution for DNNs: aggregation, distribution). */
    typedef enum
    {
        DDNN_PHASE_AGGREGATION = 0,
        DDNN_PHASE_DISTRIBUTION = 1
    } ddnn_collective_phase;

    typedef struct
    {
        /*
         * Each returns DDNN_OK or a negative code, which the collective call that triggered it
         * returns at once: the event it reported stays recorded, nothing after it happens.
         */
        /* Hand `bytes` to the transport towards rank `peer`; `step` and `chunk` name the
         * transfer within the buffer's collective (for traces). */
        int (*send)(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
        /* The same `bytes` to each of the `count` ranks of `peers` (a group: the transport
         * may multicast them once); called only with cfg->group_distribution. */
        int (*send_group)(void* ctx,
                          const uint32_t* peers,
                          uint32_t count,
                          uint32_t step,
                          uint32_t chunk,
                          uint64_t bytes);
        /* The step's chunk has fully arrived from rank `peer` (may be NULL). */
        int (*received)(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
        /* This rank is through with the buffer: a worker has its result, a dedicated server
         * has sent its update. */
        int (*done)(void* ctx);
    } ddnn_collective_callbacks;

    /* Zeroes *cb (every callback NULL), for hosts that then set the callbacks by name (C++17,
     * which ns-3.37 uses, has no designated initializers). */
    void ddnn_collective_callbacks_init(ddnn_collective_callbacks* cb);

    typedef struct ddnn_collective_ops
    {
        const char* name;    /* as written in scenario files, e.g. "ring-allreduce" */
        const char* summary; /* one line for help texts */
        /* 1: it runs with cfg->dedicated, on P server ranks of their own after the N workers;
         * 0: ddnn_collective_new refuses such a configuration. */
        int dedicated_servers;
        /* 1: with cfg->group_distribution (and dedicated servers) its distribution phase sends
         * to the group at once through send_group; 0: ddnn_collective_new refuses that. */
        int group_distribution;
        /* 1: its peers include DDNN_PEER_NETWORK (the host needs an element that runs the
         * network's side); 0: ranks only. */
        int network_peer;
        /* The ranks `cfg->rank` sends to (receives from) in any buffer, written to
         * out[0..max-1]; returns how many there are (the host opens its paths from these). */
        uint32_t (*send_peers)(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max);
        uint32_t (*receive_peers)(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max);
        /* Bytes rank `cfg->rank` sends during one collective of a buffer of `buffer_bytes`. */
        uint64_t (*bytes_sent_by)(const ddnn_collective_config* cfg, uint64_t buffer_bytes);
        /* Transfers that follow one another on the longest chain of one collective (each pays
         * one path latency): the ideal time is the busiest rank's bytes at the rate plus
         * this many latencies. */
        uint32_t (*sequential_steps)(const ddnn_collective_config* cfg);
        /* The phase of step `step`: DDNN_PHASE_AGGREGATION while gradients travel to be summed
         * (a parameter server's push, a ring's reduce-scatter), DDNN_PHASE_DISTRIBUTION while
         * the sums travel back (the pull, the all-gather). May be NULL: no phases to report. */
        ddnn_collective_phase (*phase_of_step)(const ddnn_collective_config* cfg, uint32_t step);

        int (*create)(void** state,
                      const ddnn_collective_config* cfg,
                      const ddnn_collective_callbacks* cb,
                      void* ctx);
        void (*destroy)(void* state);
        /* Starts the buffer's collective (buffer_bytes >= 1). */
        int (*start)(void* state, uint64_t buffer_bytes);
        /* `bytes` arrived from rank `peer`, in order per peer. */
        int (*on_received)(void* state, uint32_t peer, uint64_t bytes);
        int (*active)(const void* state); /* started and not done */
        /* What the collective waits for, on one line. */
        void (*describe)(const void* state, char* out, size_t size);
    } ddnn_collective_ops;

    /* Most collectives the registry holds, the built-in ones included. */
#define DDNN_COLLECTIVES_MAX 16

    /*
     * Adds `ops` to the registry under ops->name; the table is used, not copied (a static).
     * Returns DDNN_OK; DDNN_ERR_INVALID when ops is NULL, its name is not made of [a-z0-9-]
     * only (it is written in scenario files and lists of choices), or its summary or an
     * operation is NULL; DDNN_ERR_DUPLICATE when a collective of that name is registered;
     * DDNN_ERR_TOO_LARGE when DDNN_COLLECTIVES_MAX are. The built-in ones come first, in
     * the order of ddnn-collective-builtin.c. The registry is the core's one process-wide state:
     * register before any simulation runs (it is not thread-safe).
     */
    int ddnn_collective_register(const ddnn_collective_ops* ops);

    /* The registered collectives, by name; NULL when none has that name. */
    const ddnn_collective_ops* ddnn_collective_find(const char* name);
    size_t ddnn_collective_registered(void);
    /* In registration order; NULL past the last. */
    const ddnn_collective_ops* ddnn_collective_at(size_t i);
    /*
     * The registered names in order, joined by `separator` ("|", ", "), written to out (at
     * most size bytes, always terminated when size > 0); returns the length of the whole
     * list, as snprintf does (a longer result than size - 1 was cut).
     */
    size_t ddnn_collective_names(const char* separator, char* out, size_t size);

    /* One rank's instance of a collective. */
    typedef struct ddnn_collective ddnn_collective; /* opaque */

    int ddnn_collective_new(ddnn_collective** out,
                            const ddnn_collective_ops* ops,
                            const ddnn_collective_config* cfg,
                            const ddnn_collective_callbacks* cb,
                            void* ctx);
    void ddnn_collective_free(ddnn_collective* c);

    const ddnn_collective_ops* ddnn_collective_get_ops(const ddnn_collective* c);
    int ddnn_collective_start(ddnn_collective* c, uint64_t buffer_bytes);
    /* A peer that is not one of receive_peers, or more bytes than the collective expects, is
     * DDNN_ERR_STATE. */
    int ddnn_collective_on_received(ddnn_collective* c, uint32_t peer, uint64_t bytes);
    int ddnn_collective_active(const ddnn_collective* c);
    /* The phase (ddnn_collective_phase) of step `step`; -1 when the collective reports none. */
    int ddnn_collective_phase_of_step(const ddnn_collective* c, uint32_t step);
    void ddnn_collective_describe(const ddnn_collective* c, char* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_COLLECTIVE_H */
