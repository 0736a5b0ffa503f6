/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-ring.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One worker's ring for one buffer at a time (see ddnn-ring.h). */
typedef struct
{
    ddnn_collective_callbacks cb;
    void* ctx;
    uint32_t workers;   /* N */
    uint32_t rank;      /* r */
    uint32_t left;      /* r - 1 mod N, the only peer bytes come from */
    uint32_t right;     /* r + 1 mod N, the only peer bytes go to */
    uint32_t* progress; /* per partition */
    uint64_t buffer_bytes;
    uint32_t steps;         /* 2(N-1) */
    uint32_t received;      /* steps fully received */
    uint64_t step_received; /* bytes of step `received` that arrived so far */
    int active;
} ring_state;

/* Size of partition p of a buffer of `buffer_bytes` split `workers` ways: the first
 * buffer_bytes mod N partitions carry one byte more. */
static uint64_t
partition_bytes(uint64_t buffer_bytes, uint32_t workers, uint32_t partition)
{
    return buffer_bytes / workers + (partition < buffer_bytes % workers ? 1 : 0);
}

uint64_t
ddnn_ring_bytes_sent_by(uint64_t buffer_bytes, uint32_t workers, uint32_t rank)
{
    /* Over 2(N-1) steps a worker sends every partition twice except (r+1) and (r+2) once. */
    return 2 * buffer_bytes - partition_bytes(buffer_bytes, workers, (rank + 1) % workers)
           - partition_bytes(buffer_bytes, workers, (rank + 2) % workers);
}

/* The partition worker r sends in step s: (r - s) mod N. */
static uint32_t
sent_partition(const ring_state* r, uint32_t step)
{
    uint32_t n = r->workers;
    return (r->rank + n - step % n) % n;
}

/* The partition worker r receives in step s: (r - 1 - s) mod N. */
static uint32_t
received_partition(const ring_state* r, uint32_t step)
{
    uint32_t n = r->workers;
    return (r->rank + 2 * n - 1 - step % n) % n;
}

static int
send_step(ring_state* r, uint32_t step)
{
    uint32_t p = sent_partition(r, step);
    return r->cb.send(r->ctx, r->right, step, p, partition_bytes(r->buffer_bytes, r->workers, p));
}

/* Final progress of a partition: one more than the last step in which it is received. */
static uint32_t
final_progress(const ring_state* r, uint32_t partition)
{
    uint32_t n = r->workers;
    /* received in steps s with (rank - 1 - s) = partition (mod N); the last one below 2(N-1) */
    uint32_t first = (r->rank + 2 * n - 1 - partition) % n;
    uint32_t last = first + n < r->steps ? first + n : first;
    return last + 1;
}

static int
all_partitions_final(const ring_state* r)
{
    uint32_t p;
    for (p = 0; p < r->workers; p++)
        if (r->progress[p] != final_progress(r, p))
            return 0;
    return 1;
}

/*
 * Counts `bytes` towards the steps in order, completing each step whose
 * partition is full (one call may complete several). Empty partitions (buffers
 * smaller than N bytes) complete as soon as their turn comes, since no byte
 * will ever announce them.
 */
static int
consume(ring_state* r, uint64_t bytes)
{
    int rc;
    while (r->active)
    {
        uint32_t p = received_partition(r, r->received);
        uint64_t expected = partition_bytes(r->buffer_bytes, r->workers, p);
        uint64_t take = expected - r->step_received < bytes ? expected - r->step_received : bytes;
        r->step_received += take;
        bytes -= take;
        if (r->step_received < expected)
            return DDNN_OK; /* all bytes used, the step is still filling */
        /* The step's partition is complete: reduce (or copy) it and pass it on. */
        r->progress[p] = r->received + 1;
        r->step_received = 0;
        r->received++;
        if (r->cb.received
            && (rc = r->cb.received(r->ctx, r->left, r->received - 1, p, expected)) < 0)
            return rc;
        if (r->received < r->steps)
        {
            if ((rc = send_step(r, r->received)) < 0)
                return rc;
        }
        else
        {
            if (!all_partitions_final(r))
                return DDNN_ERR_STATE; /* cannot happen: every step updates one partition */
            r->active = 0;
            if ((rc = r->cb.done(r->ctx)) < 0)
                return rc;
        }
    }
    return bytes ? DDNN_ERR_STATE : DDNN_OK; /* bytes beyond the last step */
}

static uint64_t
ring_bytes_sent_by(const ddnn_collective_config* cfg, uint64_t buffer_bytes)
{
    return ddnn_ring_bytes_sent_by(buffer_bytes, cfg->workers, cfg->rank);
}

static uint32_t
ring_sequential_steps(const ddnn_collective_config* cfg)
{
    return 2 * (cfg->workers - 1);
}

/* Steps 0..N-2 reduce-scatter, N-1..2N-3 all-gather. */
static ddnn_collective_phase
ring_phase_of_step(const ddnn_collective_config* cfg, uint32_t step)
{
    return step + 1 < cfg->workers ? DDNN_PHASE_AGGREGATION : DDNN_PHASE_DISTRIBUTION;
}

static uint32_t
ring_send_peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    if (max > 0)
        out[0] = (cfg->rank + 1) % cfg->workers;
    return 1;
}

static uint32_t
ring_receive_peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    if (max > 0)
        out[0] = (cfg->rank + cfg->workers - 1) % cfg->workers;
    return 1;
}

static int
ring_create(void** state,
            const ddnn_collective_config* cfg,
            const ddnn_collective_callbacks* cb,
            void* ctx)
{
    ring_state* r;
    if (cfg->rank >= cfg->workers)
        return DDNN_ERR_INVALID; /* the ring has no parameter-server ranks */
    r = calloc(1, sizeof *r);
    if (!r)
        return DDNN_ERR_NOMEM;
    r->progress = calloc(cfg->workers, sizeof *r->progress);
    if (!r->progress)
    {
        free(r);
        return DDNN_ERR_NOMEM;
    }
    r->cb = *cb;
    r->ctx = ctx;
    r->workers = cfg->workers;
    r->rank = cfg->rank;
    ring_send_peers(cfg, &r->right, 1);
    ring_receive_peers(cfg, &r->left, 1);
    r->steps = ring_sequential_steps(cfg);
    *state = r;
    return DDNN_OK;
}

static void
ring_destroy(void* state)
{
    ring_state* r = state;
    free(r->progress);
    free(r);
}

/* Sends the step-0 partition at once (buffer_bytes >= 1 and not active: checked by
 * ddnn_collective_start). */
static int
ring_start(void* state, uint64_t buffer_bytes)
{
    ring_state* r = state;
    int rc;
    r->buffer_bytes = buffer_bytes;
    r->received = 0;
    r->step_received = 0;
    r->active = 1;
    memset(r->progress, 0, r->workers * sizeof *r->progress);
    rc = send_step(r, 0);
    return rc < 0 ? rc : consume(r, 0);
}

static int
ring_on_received(void* state, uint32_t peer, uint64_t bytes)
{
    ring_state* r = state;
    (void)peer; /* the left neighbour: ddnn_collective_on_received admits no other */
    if (!r->active)
        return bytes ? DDNN_ERR_STATE : DDNN_OK;
    return consume(r, bytes);
}

static int
ring_active(const void* state)
{
    return ((const ring_state*)state)->active;
}

/* Called while active only (ddnn_collective_describe). */
static void
ring_describe(const void* state, char* out, size_t size)
{
    const ring_state* r = state;
    snprintf(out,
             size,
             "%" PRIu32 " of %" PRIu32 " steps received, %" PRIu64 " of %" PRIu64
             " bytes of the next from the left",
             r->received,
             r->steps,
             r->step_received,
             partition_bytes(r->buffer_bytes, r->workers, received_partition(r, r->received)));
}

const ddnn_collective_ops ddnn_ring_allreduce_ops = {
    .name = "ring-allreduce",
    .summary = "ring-allreduce: 2(N-1) steps of one partition each to the right neighbour",
    .send_peers = ring_send_peers,
    .receive_peers = ring_receive_peers,
    .bytes_sent_by = ring_bytes_sent_by,
    .sequential_steps = ring_sequential_steps,
    .phase_of_step = ring_phase_of_step,
    .create = ring_create,
    .destroy = ring_destroy,
    .start = ring_start,
    .on_received = ring_on_received,
    .active = ring_active,
    .describe = ring_describe,
};
