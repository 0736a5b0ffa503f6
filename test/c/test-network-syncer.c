/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the network syncer (Horovod's coordinator on a cycle): readiness reported by N
 * workers in any order starts the buffer at the end of the cycle of the last report, with one
 * START per worker; a late worker holds the start; the previous buffer's DONEs gate the next;
 * a cycle without reports asks for no wake-up; errors propagate; control bytes are counted.
 */
#include "ddnn-network-syncer.h"
#include "ddnn-unit.h"

#define CYCLE       1000 /* ns */
#define WORKERS_MAX 16

/* What the coordinator sent, and when (the host's clock when wake() or on_report ran). */
typedef struct
{
    int64_t now;
    uint32_t starts[WORKERS_MAX]; /* START messages per worker */
    int64_t start_at;             /* when the latest START went out, -1: none */
    uint32_t iteration, buffer;   /* of the latest START */
    uint32_t finished;
    int fail_start; /* 1: send_start fails */
} host;

static int
on_send_start(void* ctx, uint32_t worker, uint32_t iteration, uint32_t buffer)
{
    host* h = ctx;
    if (h->fail_start)
        return DDNN_ERR_NOMEM;
    h->starts[worker]++;
    h->start_at = h->now;
    h->iteration = iteration;
    h->buffer = buffer;
    return DDNN_OK;
}

static int
on_finished(void* ctx, uint32_t iteration, uint32_t buffer)
{
    (void)iteration;
    (void)buffer;
    ((host*)ctx)->finished++;
    return DDNN_OK;
}

static ddnn_nsync*
make(host* h, uint32_t workers, ddnn_queue_policy policy)
{
    static const uint32_t lowest[3] = {4, 2, 0};
    ddnn_nsync_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.queue.workers = workers;
    cfg.queue.buffers = 3;
    cfg.queue.buffer_lowest = lowest;
    cfg.queue.policy = policy;
    cfg.cycle_ns = CYCLE;
    cfg.report_bytes = 40;
    cfg.response_bytes = 30;
    ddnn_nsync_callbacks cb;
    ddnn_nsync_callbacks_init(&cb);
    cb.send_start = on_send_start;
    cb.finished = on_finished;
    memset(h, 0, sizeof *h);
    h->start_at = -1;
    ddnn_nsync* n = NULL;
    CHECK(ddnn_nsync_new(&n, &cfg, &cb, h) == DDNN_OK);
    return n;
}

static void
report(ddnn_nsync* n, host* h, int64_t t, uint32_t w, ddnn_nsync_report kind, uint32_t b)
{
    int64_t next;
    h->now = t;
    CHECK(ddnn_nsync_on_report(n, t, w, kind, 0, b, &next) == DDNN_OK);
    CHECK(next == (t / CYCLE + 1) * CYCLE); /* the end of the report's cycle */
}

/* wake() at `t`; returns the time it asks for next. */
static int64_t
wake(ddnn_nsync* n, host* h, int64_t t)
{
    int64_t next = 0;
    h->now = t;
    CHECK(ddnn_nsync_wake(n, t, &next) == DDNN_OK);
    return next;
}

/* Every order of READY from 4 workers within one cycle: nothing starts before its end, then
 * one START per worker, stamped with the cycle's end. */
static void
ready_in_any_order(void)
{
    static const uint32_t orders[3][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}};
    for (int o = 0; o < 3; o++)
    {
        host h;
        ddnn_nsync* n = make(&h, 4, DDNN_QUEUE_FIFO);
        for (int i = 0; i < 4; i++)
            report(n, &h, 100 * (i + 1), orders[o][i], DDNN_NSYNC_READY, 0);
        CHECK(h.start_at == -1);
        CHECK(wake(n, &h, CYCLE - 1) == CYCLE); /* early: still waiting */
        CHECK(h.start_at == -1);
        CHECK(wake(n, &h, CYCLE) == DDNN_NSYNC_NEVER);
        CHECK(h.start_at == CYCLE);
        for (uint32_t w = 0; w < 4; w++)
            CHECK_U64(h.starts[w], 1);
        const ddnn_syncer_record* r = ddnn_syncer_record_at(ddnn_nsync_queue(n), 0);
        CHECK(r != NULL && r->start_ns == CYCLE && r->ready_ns == CYCLE);
        ddnn_nsync_free(n);
    }
}

/* Reports over several cycles: each cycle's end hands its reports over; the start comes at the
 * end of the cycle of the last READY, and a wake-up that finds nothing does nothing. */
static void
cycles(void)
{
    host h;
    ddnn_nsync* n = make(&h, 2, DDNN_QUEUE_FIFO);
    report(n, &h, 1500, 0, DDNN_NSYNC_READY, 0);
    CHECK(wake(n, &h, 2000) == DDNN_NSYNC_NEVER);
    CHECK(h.start_at == -1); /* worker 1 has not reported */
    CHECK(wake(n, &h, 2500) == DDNN_NSYNC_NEVER);
    report(n, &h, 3999, 1, DDNN_NSYNC_READY, 0);
    CHECK(wake(n, &h, 4000) == DDNN_NSYNC_NEVER);
    CHECK(h.start_at == 4000);
    ddnn_nsync_stats s;
    ddnn_nsync_get_stats(n, &s);
    CHECK_U64(s.cycles, 2);
    CHECK_U64(s.reports, 2);
    CHECK_U64(s.responses, 2);
    CHECK_U64(s.bytes, 2 * 40 + 2 * 30);
    ddnn_nsync_free(n);
}

/* A report after its predecessors' cycle ended, with no wake() in between: that cycle is
 * handed over first, at its own end. */
static void
report_past_a_cycle(void)
{
    host h;
    ddnn_nsync* n = make(&h, 2, DDNN_QUEUE_FIFO);
    report(n, &h, 100, 0, DDNN_NSYNC_READY, 0);
    report(n, &h, 200, 1, DDNN_NSYNC_READY, 0);
    report(n, &h, 5300, 0, DDNN_NSYNC_READY, 1); /* the host was late to wake */
    CHECK(h.start_at == 5300);                   /* buffer 0 went out then */
    const ddnn_syncer_record* r = ddnn_syncer_record_at(ddnn_nsync_queue(n), 0);
    CHECK(r != NULL && r->start_ns == CYCLE); /* stamped with its cycle's end */
    ddnn_nsync_free(n);
}

/* A late worker: 15 of 16 ready in the first cycle, the last one 5 cycles later. */
static void
late_worker(void)
{
    host h;
    ddnn_nsync* n = make(&h, 16, DDNN_QUEUE_PRIORITY);
    for (uint32_t w = 0; w < 15; w++)
        report(n, &h, 10 + w, w, DDNN_NSYNC_READY, 0);
    CHECK(wake(n, &h, CYCLE) == DDNN_NSYNC_NEVER);
    CHECK(h.start_at == -1);
    report(n, &h, 5 * CYCLE + 300, 15, DDNN_NSYNC_READY, 0);
    CHECK(wake(n, &h, 6 * CYCLE) == DDNN_NSYNC_NEVER);
    CHECK(h.start_at == 6 * CYCLE);
    for (uint32_t w = 0; w < 16; w++)
        CHECK_U64(h.starts[w], 1);
    ddnn_nsync_free(n);
}

/* The next buffer waits for every worker's DONE of the one in flight; the last DONE's cycle
 * end finishes it and starts the next. */
static void
done_gates_the_next(void)
{
    host h;
    ddnn_nsync* n = make(&h, 3, DDNN_QUEUE_FIFO);
    for (uint32_t w = 0; w < 3; w++)
        report(n, &h, 100 + w, w, DDNN_NSYNC_READY, 0);
    for (uint32_t w = 0; w < 3; w++)
        report(n, &h, 200 + w, w, DDNN_NSYNC_READY, 1);
    wake(n, &h, CYCLE);
    CHECK(h.start_at == CYCLE && h.buffer == 0);
    report(n, &h, 1500, 0, DDNN_NSYNC_DONE, 0);
    report(n, &h, 1600, 2, DDNN_NSYNC_DONE, 0);
    wake(n, &h, 2000);
    CHECK(h.buffer == 0 && h.finished == 0); /* worker 1 is not through */
    report(n, &h, 2700, 1, DDNN_NSYNC_DONE, 0);
    wake(n, &h, 3000);
    CHECK(h.finished == 1);
    CHECK(h.start_at == 3000 && h.buffer == 1);
    ddnn_nsync_free(n);
}

/* Bad reports and a failing send are refused, the failure returned by the call that ran it. */
static void
errors(void)
{
    host h;
    int64_t next;
    ddnn_nsync* n = make(&h, 2, DDNN_QUEUE_FIFO);
    CHECK(ddnn_nsync_on_report(n, 0, 2, DDNN_NSYNC_READY, 0, 0, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_nsync_on_report(n, 0, 0, DDNN_NSYNC_READY, 0, 3, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_nsync_on_report(n, 0, 0, (ddnn_nsync_report)7, 0, 0, &next) == DDNN_ERR_RANGE);
    report(n, &h, 500, 0, DDNN_NSYNC_READY, 0);
    CHECK(ddnn_nsync_on_report(n, 400, 1, DDNN_NSYNC_READY, 0, 0, &next) == DDNN_ERR_STATE);
    CHECK(ddnn_nsync_wake(n, 400, &next) == DDNN_ERR_STATE);
    report(n, &h, 600, 1, DDNN_NSYNC_READY, 0);
    h.fail_start = 1;
    CHECK(ddnn_nsync_wake(n, CYCLE, &next) == DDNN_ERR_NOMEM);
    ddnn_nsync_free(n);

    ddnn_nsync_config cfg;
    memset(&cfg, 0, sizeof cfg);
    ddnn_nsync_callbacks cb;
    ddnn_nsync_callbacks_init(&cb);
    CHECK(ddnn_nsync_new(&n, &cfg, &cb, NULL) == DDNN_ERR_INVALID); /* no send_start */
    cb.send_start = on_send_start;
    CHECK(ddnn_nsync_new(&n, &cfg, &cb, NULL) == DDNN_ERR_INVALID); /* no cycle */
    cfg.cycle_ns = CYCLE;
    CHECK(ddnn_nsync_new(&n, &cfg, &cb, NULL) == DDNN_ERR_INVALID); /* no workers */
}

int
main(void)
{
    RUN(ready_in_any_order);
    RUN(cycles);
    RUN(report_past_a_cycle);
    RUN(late_worker);
    RUN(done_gates_the_next);
    RUN(errors);
    return UNIT_REPORT();
}
