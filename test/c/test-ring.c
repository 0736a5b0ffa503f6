/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of ring-allreduce, driven through the collective interface as the hosts drive it:
 * N instances wired through byte pipes. The partition progress counts are read from the steps
 * the ring reports (`received`: step s brings the partition to progress s+1).
 */
#include "ddnn-collective.h"
#include "ddnn-ring.h"
#include "ddnn-unit.h"

#include <stdlib.h>

#define MAX_WORKERS 16

typedef struct
{
    ddnn_collective_config cfg;
    ddnn_collective* c;
    uint64_t sent_bytes;
    uint32_t sends;
    uint32_t steps_received;
    uint32_t progress[MAX_WORKERS];       /* per partition, from the steps received */
    uint64_t partition_sent[MAX_WORKERS]; /* bytes of each partition sent (the last send) */
    int done;
    int order_violations; /* a step sent before the previous one was received */
    int wrong_peer;       /* a send not to the right neighbour, a step not from the left */
} worker;

static worker workers[MAX_WORKERS];
/* Bytes in flight towards each worker (FIFO byte pipes: only counts matter). */
static uint64_t pipe_bytes[MAX_WORKERS];

static const ddnn_collective_ops*
ring(void)
{
    return ddnn_collective_find("ring-allreduce");
}

static int
on_send(void* ctx, uint32_t peer, uint32_t step, uint32_t partition, uint64_t bytes)
{
    worker* w = ctx;
    if (step > 0 && w->steps_received != step)
        w->order_violations++;
    w->wrong_peer += peer != (w->cfg.rank + 1) % w->cfg.workers;
    if (partition < MAX_WORKERS)
        w->partition_sent[partition] = bytes;
    w->sent_bytes += bytes;
    w->sends++;
    return DDNN_OK;
}

static int
on_send_wired(void* ctx, uint32_t peer, uint32_t step, uint32_t partition, uint64_t bytes)
{
    on_send(ctx, peer, step, partition, bytes);
    pipe_bytes[peer % MAX_WORKERS] += bytes;
    return DDNN_OK;
}

static int
on_received(void* ctx, uint32_t peer, uint32_t step, uint32_t partition, uint64_t bytes)
{
    worker* w = ctx;
    (void)bytes;
    w->wrong_peer += peer != (w->cfg.rank + w->cfg.workers - 1) % w->cfg.workers;
    w->order_violations += step != w->steps_received;
    if (partition < MAX_WORKERS)
        w->progress[partition] = step + 1;
    w->steps_received++;
    return DDNN_OK;
}

static int
on_done(void* ctx)
{
    ((worker*)ctx)->done++;
    return DDNN_OK;
}

static const ddnn_collective_callbacks wired = {
    .send = on_send_wired,
    .received = on_received,
    .done = on_done,
};

/* Runs one allreduce of `bytes` over n workers, delivering in chunks of `chunk` bytes. */
static void
run_ring(uint32_t n, uint64_t bytes, uint64_t chunk)
{
    uint32_t i;
    int moved = 1;
    memset(workers, 0, sizeof workers);
    memset(pipe_bytes, 0, sizeof pipe_bytes);
    for (i = 0; i < n; i++)
    {
        workers[i].cfg = (ddnn_collective_config){.workers = n, .rank = i};
        CHECK(ddnn_collective_new(&workers[i].c, ring(), &workers[i].cfg, &wired, &workers[i])
              == DDNN_OK);
    }
    for (i = 0; i < n; i++)
        CHECK(ddnn_collective_start(workers[i].c, bytes) == DDNN_OK);
    /* Deliver round-robin in chunks until nothing moves (chunks may straddle partitions). */
    while (moved)
    {
        moved = 0;
        for (i = 0; i < n; i++)
        {
            uint64_t take = pipe_bytes[i] < chunk ? pipe_bytes[i] : chunk;
            if (take)
            {
                pipe_bytes[i] -= take;
                CHECK(ddnn_collective_on_received(workers[i].c, (i + n - 1) % n, take) == DDNN_OK);
                moved = 1;
            }
        }
    }
}

static void
free_ring(uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        ddnn_collective_free(workers[i].c);
}

/* Thesis Fig. 5.2: at the end, worker r holds 2(N-1) on partition (r+2) mod N and one less per step
 * around. */
static void
end_state_matches_fig_5_2(void)
{
    uint32_t n, r, j;
    for (n = 2; n <= 16; n++)
    {
        run_ring(n, 1000003, 1448);
        for (r = 0; r < n; r++)
        {
            uint32_t top = (r + 2) % n, at_max = 0;
            CHECK(workers[r].done == 1);
            CHECK(!ddnn_collective_active(workers[r].c));
            for (j = 0; j < n; j++)
            {
                CHECK_U64(workers[r].progress[(top + j) % n], 2 * (n - 1) - j);
                at_max += workers[r].progress[j] == 2 * (n - 1);
            }
            CHECK_U64(at_max, 1);
            CHECK_U64(workers[r].sends, 2 * (n - 1));
            CHECK_U64(workers[r].steps_received, 2 * (n - 1));
            CHECK_U64(ring()->sequential_steps(&workers[r].cfg), 2 * (n - 1));
            CHECK_U64(workers[r].order_violations, 0);
            CHECK_U64(workers[r].wrong_peer, 0);
        }
        free_ring(n);
    }
}

/* Fig. 5.2 drawn for N = 4, worker 0: partitions 0..3 hold 4, 3, 6, 5. */
static void
fig_5_2_worker_0_of_4(void)
{
    run_ring(4, 4000, 100);
    CHECK_U64(workers[0].progress[0], 4);
    CHECK_U64(workers[0].progress[1], 3);
    CHECK_U64(workers[0].progress[2], 6);
    CHECK_U64(workers[0].progress[3], 5);
    free_ring(4);
}

/* Bytes per worker = 2(N-1)/N x S when N divides S; in all cases the ring moves 2(N-1) x S. */
static void
bytes_sent_follow_first_principles(void)
{
    uint32_t n, r;
    const uint64_t sizes[] = {5333328, 5333329, 444444, 7, 1};
    size_t k;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    {
        for (n = 2; n <= 16; n++)
        {
            uint64_t s = sizes[k], total = 0;
            if (s < n)
                continue; /* fewer bytes than partitions: covered below */
            run_ring(n, s, 65536);
            for (r = 0; r < n; r++)
            {
                CHECK_U64(workers[r].sent_bytes, ddnn_ring_bytes_sent_by(s, n, r));
                CHECK_U64(workers[r].sent_bytes, ring()->bytes_sent_by(&workers[r].cfg, s));
                if (s % n == 0)
                    CHECK_U64(workers[r].sent_bytes, 2 * (n - 1) * (s / n));
                /* never more than one byte per partition away from the ideal share */
                CHECK_NEAR((double)workers[r].sent_bytes, 2.0 * (n - 1) / n * (double)s, 2.0);
                total += workers[r].sent_bytes;
            }
            CHECK_U64(total, 2 * (uint64_t)(n - 1) * s);
            free_ring(n);
        }
    }
}

/* With fewer bytes than workers some partitions are empty; the ring still completes. */
static void
tiny_buffer_completes(void)
{
    uint32_t r;
    run_ring(8, 3, 1);
    for (r = 0; r < 8; r++)
        CHECK(workers[r].done == 1);
    free_ring(8);
}

/* 10 bytes over 4 workers: partitions of 3, 3, 2 and 2 bytes, as every worker sends them. */
static void
partition_split_puts_remainder_first(void)
{
    uint32_t r;
    run_ring(4, 10, 1);
    for (r = 0; r < 4; r++)
    {
        CHECK(workers[r].done == 1);
        CHECK_U64(workers[r].partition_sent[0], 3);
        CHECK_U64(workers[r].partition_sent[1], 3);
        CHECK_U64(workers[r].partition_sent[2], 2);
        CHECK_U64(workers[r].partition_sent[3], 2);
    }
    free_ring(4);
}

static void
rejects_misuse(void)
{
    ddnn_collective* c = NULL;
    ddnn_collective_config one = {.workers = 1, .rank = 0};
    ddnn_collective_config bad_rank = {.workers = 4, .rank = 4};
    ddnn_collective_config ok = {.workers = 2, .rank = 0};
    memset(workers, 0, sizeof workers);
    workers[0].cfg = ok;
    CHECK(ddnn_collective_new(&c, ring(), &one, &wired, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_collective_new(&c, ring(), &bad_rank, &wired, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_collective_new(&c, ring(), &ok, &wired, &workers[0]) == DDNN_OK);
    workers[0].c = c;
    CHECK(ddnn_collective_start(c, 0) == DDNN_ERR_INVALID);
    /* nothing expected before start */
    CHECK(ddnn_collective_on_received(c, 1, 1) == DDNN_ERR_STATE);
    CHECK(ddnn_collective_start(c, 10) == DDNN_OK);
    CHECK(ddnn_collective_start(c, 10) == DDNN_ERR_STATE);
    /* 10 bytes expected in all */
    CHECK(ddnn_collective_on_received(c, 1, 11) == DDNN_ERR_STATE);
    ddnn_collective_free(c);
}

static int
failing_send(void* ctx, uint32_t peer, uint32_t step, uint32_t partition, uint64_t bytes)
{
    (void)ctx, (void)peer, (void)step, (void)partition, (void)bytes;
    return DDNN_ERR_IO; /* e.g. the transport could not take the bytes */
}

/* A callback's error comes out of the call that triggered it; the start stays recorded. */
static void
callback_errors_propagate(void)
{
    ddnn_collective* c = NULL;
    const ddnn_collective_callbacks cb = {.send = failing_send, .done = on_done};
    ddnn_collective_config cfg = {.workers = 3, .rank = 0};
    memset(workers, 0, sizeof workers);
    CHECK(ddnn_collective_new(&c, ring(), &cfg, &cb, &workers[0]) == DDNN_OK);
    CHECK(ddnn_collective_start(c, 300) == DDNN_ERR_IO);
    CHECK(ddnn_collective_active(c) == 1);
    CHECK(ddnn_collective_start(c, 300) == DDNN_ERR_STATE); /* no second start over the first */
    ddnn_collective_free(c);
}

int
main(void)
{
    RUN(partition_split_puts_remainder_first);
    RUN(fig_5_2_worker_0_of_4);
    RUN(end_state_matches_fig_5_2);
    RUN(bytes_sent_follow_first_principles);
    RUN(tiny_buffer_completes);
    RUN(rejects_misuse);
    RUN(callback_errors_propagate);
    return UNIT_REPORT();
}
