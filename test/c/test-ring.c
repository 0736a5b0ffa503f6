/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the ring-allreduce partition engine: N engines wired through byte pipes. */
#include "ddnn-ring.h"
#include "ddnn-unit.h"

#include <stdlib.h>

#define MAX_WORKERS 16

typedef struct
{
    uint32_t rank;
    ddnn_ring* ring;
    uint64_t sent_bytes;
    uint32_t sends;
    int done;
    int order_violations; /* a step sent before the previous one was received */
} worker;

static worker workers[MAX_WORKERS];
/* Bytes in flight towards each worker (FIFO byte pipes: only counts matter). */
static uint64_t pipe_bytes[MAX_WORKERS];

static int
on_send(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    worker* w = ctx;
    (void)partition;
    if (step > 0 && ddnn_ring_steps_received(w->ring) != step)
        w->order_violations++;
    w->sent_bytes += bytes;
    w->sends++;
    return 0;
}

static uint32_t n_workers;

static int
on_send_wired(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    worker* w = ctx;
    on_send(ctx, step, partition, bytes);
    pipe_bytes[(w->rank + 1) % n_workers] += bytes;
    return 0;
}

static int
on_done(void* ctx)
{
    ((worker*)ctx)->done++;
    return 0;
}

/* Runs one allreduce of `bytes` over n workers, delivering in chunks of `chunk` bytes. */
static void
run_ring(uint32_t n, uint64_t bytes, uint64_t chunk)
{
    ddnn_ring_callbacks cb = {on_send_wired, NULL, on_done};
    uint32_t i;
    int moved = 1;
    n_workers = n;
    memset(workers, 0, sizeof workers);
    memset(pipe_bytes, 0, sizeof pipe_bytes);
    for (i = 0; i < n; i++)
    {
        ddnn_ring_config cfg = {n, i};
        workers[i].rank = i;
        CHECK(ddnn_ring_new(&workers[i].ring, &cfg, &cb, &workers[i]) == DDNN_OK);
    }
    for (i = 0; i < n; i++)
        CHECK(ddnn_ring_start(workers[i].ring, bytes) == DDNN_OK);
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
                CHECK(ddnn_ring_on_received(workers[i].ring, take) == DDNN_OK);
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
        ddnn_ring_free(workers[i].ring);
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
            CHECK(!ddnn_ring_active(workers[r].ring));
            for (j = 0; j < n; j++)
            {
                CHECK_U64(ddnn_ring_progress(workers[r].ring, (top + j) % n), 2 * (n - 1) - j);
                at_max += ddnn_ring_progress(workers[r].ring, j) == 2 * (n - 1);
            }
            CHECK_U64(at_max, 1);
            CHECK_U64(workers[r].sends, 2 * (n - 1));
            CHECK_U64(workers[r].order_violations, 0);
        }
        free_ring(n);
    }
}

/* Fig. 5.2 drawn for N = 4, worker 0: partitions 0..3 hold 4, 3, 6, 5. */
static void
fig_5_2_worker_0_of_4(void)
{
    run_ring(4, 4000, 100);
    CHECK_U64(ddnn_ring_progress(workers[0].ring, 0), 4);
    CHECK_U64(ddnn_ring_progress(workers[0].ring, 1), 3);
    CHECK_U64(ddnn_ring_progress(workers[0].ring, 2), 6);
    CHECK_U64(ddnn_ring_progress(workers[0].ring, 3), 5);
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

static void
partition_split_puts_remainder_first(void)
{
    CHECK_U64(ddnn_ring_partition_bytes(10, 4, 0), 3);
    CHECK_U64(ddnn_ring_partition_bytes(10, 4, 1), 3);
    CHECK_U64(ddnn_ring_partition_bytes(10, 4, 2), 2);
    CHECK_U64(ddnn_ring_partition_bytes(10, 4, 3), 2);
}

static void
rejects_misuse(void)
{
    ddnn_ring* r = NULL;
    ddnn_ring_callbacks cb = {on_send_wired, NULL, on_done};
    ddnn_ring_config one = {1, 0}, bad_rank = {4, 4}, ok = {2, 0};
    n_workers = 2;
    memset(workers, 0, sizeof workers);
    CHECK(ddnn_ring_new(&r, &one, &cb, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_ring_new(&r, &bad_rank, &cb, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_ring_new(&r, &ok, &cb, &workers[0]) == DDNN_OK);
    workers[0].ring = r;
    CHECK(ddnn_ring_start(r, 0) == DDNN_ERR_INVALID);
    CHECK(ddnn_ring_on_received(r, 1) == DDNN_ERR_STATE); /* nothing expected before start */
    CHECK(ddnn_ring_start(r, 10) == DDNN_OK);
    CHECK(ddnn_ring_start(r, 10) == DDNN_ERR_STATE);
    CHECK(ddnn_ring_on_received(r, 11) == DDNN_ERR_STATE); /* 10 bytes expected in all */
    ddnn_ring_free(r);
}

static int
failing_send(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    (void)ctx, (void)step, (void)partition, (void)bytes;
    return DDNN_ERR_IO; /* e.g. the transport could not take the bytes */
}

/* A callback's error comes out of the call that triggered it; the start stays recorded. */
static void
callback_errors_propagate(void)
{
    ddnn_ring* r = NULL;
    ddnn_ring_callbacks cb = {failing_send, NULL, on_done};
    ddnn_ring_config cfg = {3, 0};
    memset(workers, 0, sizeof workers);
    CHECK(ddnn_ring_new(&r, &cfg, &cb, &workers[0]) == DDNN_OK);
    CHECK(ddnn_ring_start(r, 300) == DDNN_ERR_IO);
    CHECK(ddnn_ring_active(r) == 1);
    CHECK(ddnn_ring_start(r, 300) == DDNN_ERR_STATE); /* no second start over the first */
    ddnn_ring_free(r);
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
