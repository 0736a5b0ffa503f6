/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the global syncer: all-ready and all-done gating, FIFO and priority. */
#include "ddnn-syncer.h"
#include "ddnn-unit.h"

static char log_text[512];

static int
on_start(void* ctx, uint32_t it, uint32_t b)
{
    char s[24];
    (void)ctx;
    snprintf(s, sizeof s, "start%u.%u ", it, b);
    strncat(log_text, s, sizeof log_text - strlen(log_text) - 1);
    return 0;
}
static int
on_finished(void* ctx, uint32_t it, uint32_t b)
{
    char s[24];
    (void)ctx;
    snprintf(s, sizeof s, "end%u.%u ", it, b);
    strncat(log_text, s, sizeof log_text - strlen(log_text) - 1);
    return 0;
}

/* 2 workers, buffers 0,1,2 with lowest layers 4, 2, 0 (they become ready in that order). */
static ddnn_syncer*
make(ddnn_queue_policy policy)
{
    static const uint32_t lowest[3] = {4, 2, 0};
    ddnn_syncer_config cfg
        = {.workers = 2, .buffers = 3, .buffer_lowest = lowest, .policy = policy};
    ddnn_syncer_callbacks cb = {.start = on_start, .finished = on_finished};
    ddnn_syncer* s = NULL;
    log_text[0] = '\0';
    CHECK(ddnn_syncer_new(&s, &cfg, &cb, NULL) == DDNN_OK);
    return s;
}

/* Buffer 0 starts when ready on both workers; 1 and 2 queue behind it. */
static void
run_scenario(ddnn_syncer* s)
{
    ddnn_syncer_on_ready(s, 0, 0, 0, 10);
    CHECK(strcmp(log_text, "") == 0); /* ready on one worker only */
    ddnn_syncer_on_ready(s, 1, 0, 0, 12);
    CHECK(strcmp(log_text, "start0.0 ") == 0);
    ddnn_syncer_on_ready(s, 0, 0, 1, 20);
    ddnn_syncer_on_ready(s, 1, 0, 1, 20);
    ddnn_syncer_on_ready(s, 0, 0, 2, 30);
    ddnn_syncer_on_ready(s, 1, 0, 2, 31);
    CHECK_U64(ddnn_syncer_queued(s), 2);
    ddnn_syncer_on_done(s, 1, 40);
    CHECK(ddnn_syncer_worker_done(s, 1));
    CHECK(!ddnn_syncer_worker_done(s, 0));
    ddnn_syncer_on_done(s, 0, 50); /* both done: the next buffer starts at once */
    ddnn_syncer_on_done(s, 0, 60);
    ddnn_syncer_on_done(s, 1, 70);
    ddnn_syncer_on_done(s, 1, 80);
    ddnn_syncer_on_done(s, 0, 90);
}

static void
fifo_sends_in_ready_order(void)
{
    ddnn_syncer* s = make(DDNN_QUEUE_FIFO);
    const ddnn_syncer_record* r;
    run_scenario(s);
    CHECK(strcmp(log_text, "start0.0 end0.0 start0.1 end0.1 start0.2 end0.2 ") == 0);
    CHECK_U64(ddnn_syncer_record_count(s), 3);
    r = ddnn_syncer_record_at(s, 0);
    CHECK_U64(r->ready_ns, 12);
    CHECK_U64(r->start_ns, 12);
    CHECK_U64(r->end_ns, 50);
    r = ddnn_syncer_record_at(s, 1);
    CHECK_U64(r->buffer, 1);
    CHECK_U64(r->ready_ns, 20);
    CHECK_U64(r->start_ns, 50);
    CHECK_U64(r->end_ns, 70);
    ddnn_syncer_free(s);
}

static void
priority_sends_lowest_layer_first(void)
{
    ddnn_syncer* s = make(DDNN_QUEUE_PRIORITY);
    run_scenario(s);
    CHECK(strcmp(log_text, "start0.0 end0.0 start0.2 end0.2 start0.1 end0.1 ") == 0);
    ddnn_syncer_free(s);
}

/* An older iteration goes first whatever the layers. */
static void
priority_prefers_older_iteration(void)
{
    ddnn_syncer* s = make(DDNN_QUEUE_PRIORITY);
    ddnn_syncer_on_ready(s, 0, 0, 1, 0);
    ddnn_syncer_on_ready(s, 1, 0, 1, 0); /* in flight */
    ddnn_syncer_on_ready(s, 0, 1, 2, 1);
    ddnn_syncer_on_ready(s, 1, 1, 2, 1);
    ddnn_syncer_on_ready(s, 0, 0, 0, 2);
    ddnn_syncer_on_ready(s, 1, 0, 0, 2);
    ddnn_syncer_on_done(s, 0, 3);
    ddnn_syncer_on_done(s, 1, 3);
    CHECK(strcmp(log_text, "start0.1 end0.1 start0.0 ") == 0);
    ddnn_syncer_free(s);
}

static void
rejects_misuse(void)
{
    ddnn_syncer* s = make(DDNN_QUEUE_FIFO);
    CHECK(ddnn_syncer_on_done(s, 0, 0) == DDNN_ERR_STATE); /* nothing in flight */
    CHECK(ddnn_syncer_on_ready(s, 2, 0, 0, 0) == DDNN_ERR_INVALID);
    CHECK(ddnn_syncer_on_ready(s, 0, 0, 3, 0) == DDNN_ERR_INVALID);
    ddnn_syncer_on_ready(s, 0, 0, 0, 0);
    ddnn_syncer_on_ready(s, 1, 0, 0, 0);
    CHECK(ddnn_syncer_on_done(s, 0, 1) == DDNN_OK);
    CHECK(ddnn_syncer_on_done(s, 0, 1) == DDNN_ERR_STATE); /* twice */
    ddnn_syncer_free(s);
}

static int
failing_start(void* ctx, uint32_t it, uint32_t b)
{
    (void)ctx, (void)it, (void)b;
    return DDNN_ERR_IO;
}

/* A callback's error comes out of the call that triggered it; the collective stays started. */
static void
callback_errors_propagate(void)
{
    static const uint32_t lowest[1] = {0};
    ddnn_syncer_config cfg
        = {.workers = 2, .buffers = 1, .buffer_lowest = lowest, .policy = DDNN_QUEUE_FIFO};
    ddnn_syncer_callbacks cb = {.start = failing_start, .finished = on_finished};
    ddnn_syncer* s = NULL;
    CHECK(ddnn_syncer_new(&s, &cfg, &cb, NULL) == DDNN_OK);
    CHECK(ddnn_syncer_on_ready(s, 0, 0, 0, 1) == DDNN_OK);
    CHECK(ddnn_syncer_on_ready(s, 1, 0, 0, 2) == DDNN_ERR_IO);
    CHECK(ddnn_syncer_in_flight(s, NULL, NULL) == 1);
    ddnn_syncer_free(s);
}

/* ddnn_syncer_callbacks_init, as the C++ shim uses it: every callback NULL (a table left so is
 * refused), then the ones set by name. */
static void
callbacks_init_zeroes(void)
{
    static const uint32_t lowest[1] = {0};
    ddnn_syncer_config cfg
        = {.workers = 2, .buffers = 1, .buffer_lowest = lowest, .policy = DDNN_QUEUE_FIFO};
    ddnn_syncer_callbacks cb = {.start = on_start, .finished = on_finished};
    ddnn_syncer* s = NULL;
    ddnn_syncer_callbacks_init(&cb);
    CHECK(cb.start == NULL && cb.finished == NULL);
    CHECK(ddnn_syncer_new(&s, &cfg, &cb, NULL) == DDNN_ERR_INVALID);
    cb.start = on_start;
    cb.finished = on_finished;
    CHECK(ddnn_syncer_new(&s, &cfg, &cb, NULL) == DDNN_OK);
    ddnn_syncer_free(s);
}

int
main(void)
{
    RUN(fifo_sends_in_ready_order);
    RUN(priority_sends_lowest_layer_first);
    RUN(priority_prefers_older_iteration);
    RUN(rejects_misuse);
    RUN(callback_errors_propagate);
    RUN(callbacks_init_zeroes);
    return UNIT_REPORT();
}
