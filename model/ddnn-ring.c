/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-ring.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ddnn_ring
{
    ddnn_ring_config cfg;
    ddnn_ring_callbacks cb;
    void* ctx;
    uint32_t* progress; /* per partition */
    uint64_t buffer_bytes;
    uint32_t steps;         /* 2(N-1) */
    uint32_t received;      /* steps fully received */
    uint64_t step_received; /* bytes of step `received` that arrived so far */
    int active;
};

uint64_t
ddnn_ring_partition_bytes(uint64_t buffer_bytes, uint32_t workers, uint32_t partition)
{
    return buffer_bytes / workers + (partition < buffer_bytes % workers ? 1 : 0);
}

uint64_t
ddnn_ring_bytes_sent_by(uint64_t buffer_bytes, uint32_t workers, uint32_t rank)
{
    /* Over 2(N-1) steps a worker sends every partition twice except (r+1) and (r+2) once. */
    return 2 * buffer_bytes - ddnn_ring_partition_bytes(buffer_bytes, workers, (rank + 1) % workers)
           - ddnn_ring_partition_bytes(buffer_bytes, workers, (rank + 2) % workers);
}

/* The partition worker r sends in step s: (r - s) mod N. */
static uint32_t
sent_partition(const ddnn_ring* r, uint32_t step)
{
    uint32_t n = r->cfg.workers;
    return (r->cfg.rank + n - step % n) % n;
}

/* The partition worker r receives in step s: (r - 1 - s) mod N. */
static uint32_t
received_partition(const ddnn_ring* r, uint32_t step)
{
    uint32_t n = r->cfg.workers;
    return (r->cfg.rank + 2 * n - 1 - step % n) % n;
}

int
ddnn_ring_new(ddnn_ring** out,
              const ddnn_ring_config* cfg,
              const ddnn_ring_callbacks* cb,
              void* ctx)
{
    ddnn_ring* r;
    if (!out || !cfg || !cb || !cb->send || !cb->done || cfg->workers < 2
        || cfg->rank >= cfg->workers)
        return DDNN_ERR_INVALID;
    r = calloc(1, sizeof *r);
    if (!r)
        return DDNN_ERR_NOMEM;
    r->progress = calloc(cfg->workers, sizeof *r->progress);
    if (!r->progress)
    {
        free(r);
        return DDNN_ERR_NOMEM;
    }
    r->cfg = *cfg;
    r->cb = *cb;
    r->ctx = ctx;
    r->steps = 2 * (cfg->workers - 1);
    *out = r;
    return DDNN_OK;
}

void
ddnn_ring_free(ddnn_ring* r)
{
    if (r)
    {
        free(r->progress);
        free(r);
    }
}

static int
send_step(ddnn_ring* r, uint32_t step)
{
    uint32_t p = sent_partition(r, step);
    return r->cb.send(
        r->ctx, step, p, ddnn_ring_partition_bytes(r->buffer_bytes, r->cfg.workers, p));
}

/* Final progress of a partition: one more than the last step in which it is received. */
static uint32_t
final_progress(const ddnn_ring* r, uint32_t partition)
{
    uint32_t n = r->cfg.workers;
    /* received in steps s with (rank - 1 - s) = partition (mod N); the last one below 2(N-1) */
    uint32_t first = (r->cfg.rank + 2 * n - 1 - partition) % n;
    uint32_t last = first + n < r->steps ? first + n : first;
    return last + 1;
}

static int
all_partitions_final(const ddnn_ring* r)
{
    uint32_t p;
    for (p = 0; p < r->cfg.workers; p++)
        if (r->progress[p] != final_progress(r, p))
            return 0;
    return 1;
}

/*
 * Counts `bytes` towards the steps in order, completing each step whose
 * partition is full. Empty partitions (buffers smaller than N bytes) complete
 * as soon as their turn comes, since no byte will ever announce them.
 */
static int
consume(ddnn_ring* r, uint64_t bytes)
{
    int rc;
    while (r->active)
    {
        uint32_t p = received_partition(r, r->received);
        uint64_t expected = ddnn_ring_partition_bytes(r->buffer_bytes, r->cfg.workers, p);
        uint64_t take = expected - r->step_received < bytes ? expected - r->step_received : bytes;
        r->step_received += take;
        bytes -= take;
        if (r->step_received < expected)
            return DDNN_OK; /* all bytes used, the step is still filling */
        /* The step's partition is complete: reduce (or copy) it and pass it on. */
        r->progress[p] = r->received + 1;
        r->step_received = 0;
        r->received++;
        if (r->cb.received && (rc = r->cb.received(r->ctx, r->received - 1, p, expected)) < 0)
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

int
ddnn_ring_start(ddnn_ring* r, uint64_t buffer_bytes)
{
    if (!r || buffer_bytes == 0)
        return DDNN_ERR_INVALID;
    if (r->active)
        return DDNN_ERR_STATE;
    r->buffer_bytes = buffer_bytes;
    r->received = 0;
    r->step_received = 0;
    r->active = 1;
    memset(r->progress, 0, r->cfg.workers * sizeof *r->progress);
    {
        int rc = send_step(r, 0);
        return rc < 0 ? rc : consume(r, 0);
    }
}

int
ddnn_ring_on_received(ddnn_ring* r, uint64_t bytes)
{
    if (!r)
        return DDNN_ERR_INVALID;
    if (!r->active)
        return bytes ? DDNN_ERR_STATE : DDNN_OK;
    return consume(r, bytes);
}

int
ddnn_ring_active(const ddnn_ring* r)
{
    return r->active;
}
uint32_t
ddnn_ring_steps(const ddnn_ring* r)
{
    return r->steps;
}
uint32_t
ddnn_ring_steps_received(const ddnn_ring* r)
{
    return r->received;
}
uint64_t
ddnn_ring_step_bytes_received(const ddnn_ring* r)
{
    return r->step_received;
}

uint64_t
ddnn_ring_step_bytes_expected(const ddnn_ring* r)
{
    if (!r->active)
        return 0;
    return ddnn_ring_partition_bytes(
        r->buffer_bytes, r->cfg.workers, received_partition(r, r->received));
}

uint32_t
ddnn_ring_progress(const ddnn_ring* r, uint32_t partition)
{
    return partition < r->cfg.workers ? r->progress[partition] : 0;
}

/* ---- ring-allreduce as a collective ---------------------------------------------------- */

typedef struct
{
    ddnn_ring* ring;
    ddnn_collective_callbacks cb;
    void* ctx;
    uint32_t left;  /* the only peer bytes come from */
    uint32_t right; /* the only peer bytes go to */
} ring_collective;

static int
ring_collective_send(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    ring_collective* rc = ctx;
    return rc->cb.send(rc->ctx, rc->right, step, partition, bytes);
}

static int
ring_collective_received(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    ring_collective* rc = ctx;
    return rc->cb.received ? rc->cb.received(rc->ctx, rc->left, step, partition, bytes) : DDNN_OK;
}

static int
ring_collective_done(void* ctx)
{
    ring_collective* rc = ctx;
    return rc->cb.done(rc->ctx);
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
ring_collective_create(void** state,
                       const ddnn_collective_config* cfg,
                       const ddnn_collective_callbacks* cb,
                       void* ctx)
{
    static const ddnn_ring_callbacks ring_cb
        = {ring_collective_send, ring_collective_received, ring_collective_done};
    ddnn_ring_config ring_cfg;
    ring_collective* rc;
    int err;
    if (cfg->workers < 2 || cfg->rank >= cfg->workers)
        return DDNN_ERR_INVALID;
    rc = calloc(1, sizeof *rc);
    if (!rc)
        return DDNN_ERR_NOMEM;
    rc->cb = *cb;
    rc->ctx = ctx;
    ring_send_peers(cfg, &rc->right, 1);
    ring_receive_peers(cfg, &rc->left, 1);
    ring_cfg.workers = cfg->workers;
    ring_cfg.rank = cfg->rank;
    if ((err = ddnn_ring_new(&rc->ring, &ring_cfg, &ring_cb, rc)) < 0)
    {
        free(rc);
        return err;
    }
    *state = rc;
    return DDNN_OK;
}

static void
ring_collective_destroy(void* state)
{
    ring_collective* rc = state;
    ddnn_ring_free(rc->ring);
    free(rc);
}

static int
ring_collective_start(void* state, uint64_t buffer_bytes)
{
    return ddnn_ring_start(((ring_collective*)state)->ring, buffer_bytes);
}

static int
ring_collective_on_received(void* state, uint32_t peer, uint64_t bytes)
{
    ring_collective* rc = state;
    return peer == rc->left ? ddnn_ring_on_received(rc->ring, bytes) : DDNN_ERR_STATE;
}

static int
ring_collective_active(const void* state)
{
    return ddnn_ring_active(((const ring_collective*)state)->ring);
}

static void
ring_collective_describe(const void* state, char* out, size_t size)
{
    const ddnn_ring* r = ((const ring_collective*)state)->ring;
    snprintf(out,
             size,
             "%" PRIu32 " of %" PRIu32 " steps received, %" PRIu64 " of %" PRIu64
             " bytes of the next from the left",
             ddnn_ring_steps_received(r),
             ddnn_ring_steps(r),
             ddnn_ring_step_bytes_received(r),
             ddnn_ring_step_bytes_expected(r));
}

const ddnn_collective_ops ddnn_ring_allreduce_ops = {
    "ring-allreduce",
    "ring-allreduce: 2(N-1) steps of one partition each to the right neighbour",
    ring_send_peers,
    ring_receive_peers,
    ring_bytes_sent_by,
    ring_sequential_steps,
    ring_collective_create,
    ring_collective_destroy,
    ring_collective_start,
    ring_collective_on_received,
    ring_collective_active,
    ring_collective_describe,
};
