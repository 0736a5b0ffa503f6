/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In-network aggregation after SwitchML's slot protocol, as a switch and a worker state
 * machine: no sockets, no clock (time is an argument). The host moves the packets and calls
 * wake() when the time a machine asked for comes.
 *
 * A job's N workers each hold a gradient of the same `bytes`, cut into chunks of
 * `chunk_bytes` (the last one shorter), numbered 0..C-1. The switch lends the job a pool of
 * K slots, each as large as a chunk, out of its memory budget.
 * - A worker starts by sending chunks 0..K-1, chunk c into slot c mod K. When the result of
 *   chunk c comes back, that slot is free for the worker's chunk c + K (self-clocked: a
 *   worker never has more than K chunks out). It has the aggregate when the results of all C
 *   chunks are in.
 * - The switch adds each contribution into its slot (once per worker: a bitmap drops
 *   repeats) and, when all N contributions of a chunk are in, sends the result to the N
 *   workers and readies the slot for chunk c + K. It keeps the last result of each slot, so
 *   that a worker whose result was lost, and that sends chunk c again, gets the result again,
 *   sent to it alone.
 * - A worker that has no result for a chunk a timeout after sending it sends it again (a lost
 *   contribution, or a lost result), and again after twice that, four times, ... (at most 64
 *   times the timeout: TCP's back-off, so that a slot held up by a slow worker is not
 *   flooded). The timeout
 *   follows the round trips of chunks sent once (RFC 6298's smoothed estimate and mean
 *   deviation; Karn's rule): srtt + max(4 rttvar, srtt / 4), never below `retransmit_ns`,
 *   which alone holds until the first sample. A fixed timeout below the queueing delay would
 *   resend chunks that are only waiting in a queue.
 * Every contribution carries a value that the switch sums into the result (the simulation
 * carries sizes, not gradients: the value stands for them, so tests can check the sums).
 *
 * Loss of any packet delays completion but never prevents it while some packets get through.
 * Each chunk's result goes to every worker (the switch's multicast, or N unicasts: the
 * host's choice).
 */
#ifndef DDNN_AGGREGATION_H
#define DDNN_AGGREGATION_H

#include "ddnn-error.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* Most workers of one job, and most jobs of one switch. */
#define DDNN_AGG_WORKERS_MAX 1024
#define DDNN_AGG_JOBS_MAX    64
/* wake()'s "no time wanted". */
#define DDNN_AGG_NEVER       INT64_MAX
/* send_result's "to every worker". */
#define DDNN_AGG_ALL         UINT32_MAX

    /* ---- Switch ---- */

    /* What a contribution and a result carry: the fields of their packet's header. */
    typedef struct ddnn_agg_chunk_message
    {
        uint32_t job;
        uint32_t worker; /* the contributor; a result's addressee, or DDNN_AGG_ALL */
        uint32_t chunk;
        uint32_t slot;   /* chunk mod the job's slots */
        uint32_t length; /* bytes of the chunk */
        int64_t value;   /* a contribution's value, or a result's sum */
    } ddnn_agg_chunk_message;

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the call that triggered it returns. */
        /* The result of a chunk: the sum of its contributions in `result->value`. */
        int (*send_result)(void* ctx, const ddnn_agg_chunk_message* result);
    } ddnn_agg_switch_callbacks;

    void ddnn_agg_switch_callbacks_init(ddnn_agg_switch_callbacks* cb);

    typedef struct
    {
        uint64_t contributions; /* contributions added into a slot */
        uint64_t repeats;       /* contributions a slot already had (retransmissions) */
        uint64_t stale;         /* contributions for a chunk the slot is not at */
        uint64_t results;       /* chunks completed */
        uint64_t resent;        /* results sent again to one worker */
        uint64_t memory_bytes;  /* slot memory lent to jobs now */
    } ddnn_agg_switch_stats;

    typedef struct ddnn_agg_switch ddnn_agg_switch; /* opaque */

    /* A switch with `memory_bytes` of slot memory. DDNN_ERR_INVALID for a NULL argument or a
     * missing send_result. */
    int ddnn_agg_switch_new(ddnn_agg_switch** out,
                            uint64_t memory_bytes,
                            const ddnn_agg_switch_callbacks* cb,
                            void* ctx);
    void ddnn_agg_switch_free(ddnn_agg_switch* s);
    /*
     * Lends job `job` (below DDNN_AGG_JOBS_MAX) `slots` slots of `chunk_bytes` for `workers`
     * workers (2..DDNN_AGG_WORKERS_MAX). DDNN_ERR_TOO_LARGE when the memory left holds fewer
     * slots (the job falls back to another collective); DDNN_ERR_DUPLICATE for a job that has
     * slots; DDNN_ERR_RANGE for a value out of range.
     */
    int ddnn_agg_switch_add_job(
        ddnn_agg_switch* s, uint32_t job, uint32_t workers, uint32_t slots, uint32_t chunk_bytes);
    /* The job's slots back to the memory; DDNN_ERR_MISSING for a job without slots. */
    int ddnn_agg_switch_remove_job(ddnn_agg_switch* s, uint32_t job);
    /* Slots `memory_bytes` of free memory holds at `chunk_bytes` each. */
    uint32_t ddnn_agg_switch_free_slots(const ddnn_agg_switch* s, uint32_t chunk_bytes);
    /*
     * Worker `c->worker` of job `c->job` contributes `c->value` to a chunk. DDNN_ERR_RANGE for
     * a job without slots, a worker, slot or chunk that does not fit (slot is chunk mod the
     * job's slots), or a length above its chunk_bytes.
     */
    int ddnn_agg_switch_on_contribution(ddnn_agg_switch* s, const ddnn_agg_chunk_message* c);
    void ddnn_agg_switch_get_stats(const ddnn_agg_switch* s, ddnn_agg_switch_stats* out);

    /* ---- Worker ---- */

    typedef struct
    {
        uint64_t bytes;        /* the gradient, >= 1 */
        uint32_t chunk_bytes;  /* 1..65507 */
        uint32_t slots;        /* the job's pool, >= 1 */
        int64_t retransmit_ns; /* > 0: the least timeout */
        /* The round-trip estimate to start from (a previous gradient's,
         * ddnn_agg_worker_get_rtt), >= 0; srtt_ns 0: none yet. */
        int64_t srtt_ns;
        int64_t rttvar_ns;
    } ddnn_agg_worker_config;

    /* DDNN_OK, or DDNN_ERR_RANGE with *field (when field is not NULL) the name of the first
     * member out of range (more than 2^31 chunks is too many). */
    int ddnn_agg_worker_config_check(const ddnn_agg_worker_config* cfg, const char** field);
    /* Chunks of the gradient, and the bytes of chunk `chunk`. */
    uint32_t ddnn_agg_chunks(const ddnn_agg_worker_config* cfg);
    uint32_t ddnn_agg_chunk_length(const ddnn_agg_worker_config* cfg, uint32_t chunk);

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the call that triggered it returns. */
        /* Send chunk `chunk` (`length` bytes at `offset`) into slot `slot` (retransmission: 1
         * when sent before). The host supplies the value the contribution carries. */
        int (*send_chunk)(void* ctx,
                          uint32_t chunk,
                          uint32_t slot,
                          uint64_t offset,
                          uint32_t length,
                          int retransmission);
        /* Every chunk's result is in (once). May be NULL. */
        int (*complete)(void* ctx);
    } ddnn_agg_worker_callbacks;

    void ddnn_agg_worker_callbacks_init(ddnn_agg_worker_callbacks* cb);

    typedef struct
    {
        uint64_t chunks;          /* chunks sent the first time */
        uint64_t retransmissions; /* chunks sent again */
        uint64_t results;         /* results received, each chunk once */
        uint64_t duplicates;      /* results received again */
        uint64_t bytes;           /* result bytes received, each chunk once */
        uint32_t slots_in_use;    /* chunks out and waiting for a result */
    } ddnn_agg_worker_stats;

    typedef struct ddnn_agg_worker ddnn_agg_worker; /* opaque */

    /* DDNN_ERR_RANGE for a configuration out of range, DDNN_ERR_INVALID for a NULL argument
     * or a missing send_chunk. */
    int ddnn_agg_worker_new(ddnn_agg_worker** out,
                            const ddnn_agg_worker_config* cfg,
                            const ddnn_agg_worker_callbacks* cb,
                            void* ctx);
    void ddnn_agg_worker_free(ddnn_agg_worker* w);
    /* Sends the first min(K, C) chunks at `now_ns` (once: DDNN_ERR_STATE after); *next_ns is
     * when wake() is next wanted (DDNN_AGG_NEVER: none). */
    int ddnn_agg_worker_start(ddnn_agg_worker* w, int64_t now_ns, int64_t* next_ns);
    /* The result of chunk `chunk` (`length` bytes) arrived: DDNN_ERR_RANGE for a chunk the
     * gradient has not or a wrong length; a repeat is counted and ignored. */
    int ddnn_agg_worker_on_result(
        ddnn_agg_worker* w, int64_t now_ns, uint32_t chunk, uint32_t length, int64_t* next_ns);
    /* Sends again what has waited retransmit_ns; *next_ns as for start. */
    int ddnn_agg_worker_wake(ddnn_agg_worker* w, int64_t now_ns, int64_t* next_ns);
    int ddnn_agg_worker_complete(const ddnn_agg_worker* w);
    /* The round-trip estimate now (srtt 0: no sample yet), for the next gradient's config. */
    void ddnn_agg_worker_get_rtt(const ddnn_agg_worker* w, int64_t* srtt_ns, int64_t* rttvar_ns);
    void ddnn_agg_worker_get_stats(const ddnn_agg_worker* w, ddnn_agg_worker_stats* out);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_AGGREGATION_H */
