/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the per-worker training loop, driven by hand with explicit times. */
#include "ddnn-training.h"
#include "ddnn-unit.h"

#include <stdlib.h>

/* What the loop asked for, in order: "F0", "B2", "R0.1" (ready it0 buf1), "S1", "E0", "X". */
static char events[2048];
static uint64_t pending_ns; /* duration of the compute task in progress, 0 when none */
static uint64_t now_ns;

static void
append(const char* s)
{
    strncat(events, s, sizeof events - strlen(events) - 1);
    strncat(events, " ", sizeof events - strlen(events) - 1);
}

static int
on_compute(void* ctx, uint64_t ns)
{
    (void)ctx;
    CHECK(pending_ns == 0); /* one compute task at a time */
    pending_ns = ns;
    return 0;
}
static int
on_ready(void* ctx, uint32_t it, uint32_t b)
{
    char s[32];
    (void)ctx;
    snprintf(s, sizeof s, "R%u.%u@%llu", it, b, (unsigned long long)now_ns);
    append(s);
    return 0;
}
static int
on_start(void* ctx, uint32_t it)
{
    char s[32];
    (void)ctx;
    snprintf(s, sizeof s, "S%u@%llu", it, (unsigned long long)now_ns);
    append(s);
    return 0;
}
static int
on_end(void* ctx, uint32_t it)
{
    char s[32];
    (void)ctx;
    snprintf(s, sizeof s, "E%u@%llu", it, (unsigned long long)now_ns);
    append(s);
    return 0;
}
static int
on_finished(void* ctx)
{
    (void)ctx;
    append("X");
    return 0;
}

/* 3 layers: forward 30,20,10 ns, backward 1,2,3 ns; buffer 0 = {2}, buffer 1 = {0,1}. */
static const uint64_t fwd[3] = {30, 20, 10}, bwd[3] = {1, 2, 3};
static const uint32_t of_layer[3] = {1, 1, 0}, lowest[2] = {2, 0};

static ddnn_training*
make(int barrier, uint32_t iterations, uint64_t stop_ns)
{
    ddnn_training_config cfg = {3, fwd, bwd, 2, of_layer, lowest, barrier, iterations, stop_ns};
    ddnn_training_callbacks cb = {on_compute, on_ready, on_start, on_end, on_finished};
    ddnn_training* t = NULL;
    events[0] = '\0';
    pending_ns = 0;
    now_ns = 0;
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_OK);
    return t;
}

/* Runs compute tasks until the loop waits for the network. */
static void
compute_until_idle(ddnn_training* t)
{
    while (pending_ns)
    {
        now_ns += pending_ns;
        pending_ns = 0;
        CHECK(ddnn_training_on_compute_done(t, now_ns) == DDNN_OK);
    }
}

/* The task the loop reports at each compute callback: forward 0..L-1, then backward L-1..0. */
static void
current_task_names_each_layer(void)
{
    ddnn_training* t = make(1, 2, 0);
    char tasks[256] = "";
    uint32_t it = 9, layer = 9;
    int backward = 9;
    CHECK(ddnn_training_current_task(t, &it, &layer, &backward) == 0); /* not started */
    CHECK(ddnn_training_start(t, 0) == DDNN_OK);
    while (ddnn_training_current_task(t, &it, &layer, &backward))
    {
        char s[16];
        snprintf(s, sizeof s, "%u%c%u ", it, backward ? 'b' : 'f', layer);
        strncat(tasks, s, sizeof tasks - strlen(tasks) - 1);
        now_ns += pending_ns;
        pending_ns = 0;
        CHECK(ddnn_training_on_compute_done(t, now_ns) == DDNN_OK);
    }
    /* Then it waits for buffer 1 (layers 0 and 1) of iteration 0: no task runs. */
    CHECK(strcmp(tasks, "0f0 0f1 0f2 0b2 0b1 0b0 ") == 0);
    CHECK(pending_ns == 0);
    ddnn_training_free(t);
}

static void
one_iteration_in_order(void)
{
    ddnn_training* t = make(1, 1, 0);
    CHECK(ddnn_training_start(t, 0) == DDNN_OK);
    compute_until_idle(t);
    /* forward 60 ns, then backward of layer 2 (3 ns) readies buffer 0, layers 1 and 0 buffer 1 */
    CHECK(strcmp(events, "S0@0 R0.0@63 R0.1@66 ") == 0);
    now_ns = 100;
    CHECK(ddnn_training_on_buffer_done(t, 0, 0, now_ns) == DDNN_OK);
    CHECK(!ddnn_training_finished(t));
    CHECK(ddnn_training_on_buffer_done(t, 0, 1, now_ns) == DDNN_OK);
    CHECK(strcmp(events, "S0@0 R0.0@63 R0.1@66 E0@100 X ") == 0);
    CHECK(ddnn_training_finished(t));
    CHECK_U64(ddnn_training_iterations_completed(t), 1);
    ddnn_training_free(t);
}

/* With the barrier, forward of the next iteration waits for every buffer. */
static void
barrier_waits_for_every_buffer(void)
{
    ddnn_training* t = make(1, 2, 0);
    ddnn_training_start(t, 0);
    compute_until_idle(t);
    now_ns = 70;
    ddnn_training_on_buffer_done(t, 0, 1, now_ns); /* layer 0's buffer first: not enough */
    CHECK(pending_ns == 0);
    now_ns = 80;
    ddnn_training_on_buffer_done(t, 0, 0, now_ns);
    CHECK_STR_CONTAINS(events, "E0@80 S1@80");
    CHECK(pending_ns == 30);
    compute_until_idle(t);
    CHECK_STR_CONTAINS(events, "R1.0@143 R1.1@146");
    ddnn_training_free(t);
}

/* Without it, forward of layer i waits only for the buffer holding layer i. */
static void
no_barrier_waits_per_layer(void)
{
    char what[128];
    ddnn_training* t = make(0, 2, 0);
    ddnn_training_start(t, 0);
    compute_until_idle(t);
    CHECK(pending_ns == 0); /* layer 0's buffer (1) is not back yet */
    ddnn_training_describe(t, what, sizeof what);
    CHECK_STR_CONTAINS(what, "forward of layer 0 waits for buffer 1 of iteration 0");
    now_ns = 70;
    ddnn_training_on_buffer_done(t, 0, 1, now_ns);
    CHECK_STR_CONTAINS(events, "S1@70");
    CHECK(pending_ns == 30); /* forward of layer 0 starts as soon as its buffer arrives */
    compute_until_idle(t);   /* layers 0 and 1 (buffer 1) run; layer 2 waits for buffer 0 */
    CHECK_U64(now_ns, 120);
    ddnn_training_describe(t, what, sizeof what);
    CHECK_STR_CONTAINS(what, "forward of layer 2 waits for buffer 0 of iteration 0");
    now_ns = 125;
    ddnn_training_on_buffer_done(t, 0, 0, now_ns);
    CHECK_STR_CONTAINS(events, "E0@125");
    compute_until_idle(t);
    CHECK_STR_CONTAINS(events, "R1.0@138 R1.1@141");
    ddnn_training_free(t);
}

/* No iteration starts at or after the stop time; the last one drains, then "finished". */
static void
stop_time_drains(void)
{
    ddnn_training* t = make(0, 0, 50);
    ddnn_training_start(t, 0);
    compute_until_idle(t); /* backward ends at 66 >= 50 */
    CHECK(!ddnn_training_finished(t));
    now_ns = 90;
    ddnn_training_on_buffer_done(t, 0, 0, now_ns);
    ddnn_training_on_buffer_done(t, 0, 1, now_ns);
    CHECK(ddnn_training_finished(t));
    CHECK(strcmp(events, "S0@0 R0.0@63 R0.1@66 E0@90 X ") == 0);
    ddnn_training_free(t);
}

static void
rejects_misuse(void)
{
    ddnn_training* t = make(1, 1, 0);
    uint32_t bad_of_layer[3] = {1, 1, 2};
    ddnn_training_config bad = {3, fwd, bwd, 2, bad_of_layer, lowest, 1, 1, 0};
    ddnn_training_callbacks cb = {on_compute, on_ready, NULL, NULL, NULL};
    ddnn_training* u = NULL;
    CHECK(ddnn_training_new(&u, &bad, &cb, NULL) == DDNN_ERR_INVALID);
    CHECK(ddnn_training_on_buffer_done(t, 0, 0, 0) == DDNN_ERR_STATE); /* not started */
    ddnn_training_start(t, 0);
    CHECK(ddnn_training_start(t, 0) == DDNN_ERR_STATE);
    compute_until_idle(t);
    CHECK(ddnn_training_on_buffer_done(t, 0, 5, 0) == DDNN_ERR_INVALID);
    CHECK(ddnn_training_on_buffer_done(t, 0, 0, 0) == DDNN_OK);
    CHECK(ddnn_training_on_buffer_done(t, 0, 0, 0) == DDNN_ERR_STATE); /* twice */
    CHECK(ddnn_training_on_buffer_done(t, 1, 1, 0) == DDNN_ERR_STATE); /* not that iteration */
    CHECK(ddnn_training_on_compute_done(t, 0) == DDNN_ERR_STATE);      /* nothing computing */
    ddnn_training_free(t);
}

static int
failing_compute(void* ctx, uint64_t ns)
{
    (void)ctx, (void)ns;
    return DDNN_ERR_NOMEM; /* e.g. the host could not schedule the task */
}

/* A callback's error comes out of the call that triggered it, the transition recorded. */
static void
callback_errors_propagate(void)
{
    ddnn_training_config cfg = {3, fwd, bwd, 2, of_layer, lowest, 1, 1, 0};
    ddnn_training_callbacks cb = {failing_compute, on_ready, on_start, on_end, on_finished};
    ddnn_training* t = NULL;
    events[0] = '\0';
    now_ns = 0;
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_OK);
    CHECK(ddnn_training_start(t, 0) == DDNN_ERR_NOMEM);
    CHECK(strcmp(events, "S0@0 ") == 0);                /* iteration 0 did start */
    CHECK(ddnn_training_start(t, 0) == DDNN_ERR_STATE); /* and is not started twice */
    ddnn_training_free(t);
}

int
main(void)
{
    RUN(one_iteration_in_order);
    RUN(current_task_names_each_layer);
    RUN(barrier_waits_for_every_buffer);
    RUN(no_barrier_waits_per_layer);
    RUN(stop_time_drains);
    RUN(rejects_misuse);
    RUN(callback_errors_propagate);
    return UNIT_REPORT();
}
