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
make_first(int barrier, uint32_t iterations, uint64_t stop_ns, int first_backward)
{
    ddnn_training_config cfg = {
        .layers = 3,
        .forward_ns = fwd,
        .backward_ns = bwd,
        .buffers = 2,
        .buffer_of_layer = of_layer,
        .buffer_lowest = lowest,
        .barrier = barrier,
        .max_iterations = iterations,
        .stop_ns = stop_ns,
        .first_backward = first_backward,
    };
    ddnn_training_callbacks cb = {
        .compute = on_compute,
        .buffer_ready = on_ready,
        .iteration_start = on_start,
        .iteration_end = on_end,
        .finished = on_finished,
    };
    ddnn_training* t = NULL;
    events[0] = '\0';
    pending_ns = 0;
    now_ns = 0;
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_OK);
    return t;
}

static ddnn_training*
make(int barrier, uint32_t iterations, uint64_t stop_ns)
{
    return make_first(barrier, iterations, stop_ns, 0);
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

/* first_backward: iteration 0 starts with the backward pass (6 ns), the next ones whole. */
static void
first_iteration_backward_only(void)
{
    ddnn_training* t = make_first(1, 2, 0, 1);
    uint32_t it = 9, layer = 9;
    int backward = 0;
    CHECK(ddnn_training_start(t, 0) == DDNN_OK);
    CHECK(ddnn_training_current_task(t, &it, &layer, &backward) == 1);
    CHECK(it == 0 && layer == 2 && backward == 1);
    compute_until_idle(t);
    CHECK(strcmp(events, "S0@0 R0.0@3 R0.1@6 ") == 0);
    now_ns = 10;
    ddnn_training_on_buffer_done(t, 0, 0, now_ns);
    ddnn_training_on_buffer_done(t, 0, 1, now_ns);
    CHECK(pending_ns == 30); /* iteration 1 has its forward pass */
    compute_until_idle(t);
    CHECK(strcmp(events, "S0@0 R0.0@3 R0.1@6 E0@10 S1@10 R1.0@73 R1.1@76 ") == 0);
    now_ns = 80;
    ddnn_training_on_buffer_done(t, 1, 0, now_ns);
    ddnn_training_on_buffer_done(t, 1, 1, now_ns);
    CHECK_STR_CONTAINS(events, "E1@80 X");
    CHECK_U64(ddnn_training_iterations_completed(t), 2);
    ddnn_training_free(t);
    /* A stop time at the start still starts nothing. */
    t = make_first(1, 0, 5, 1);
    now_ns = 5;
    CHECK(ddnn_training_start(t, now_ns) == DDNN_OK);
    CHECK(strcmp(events, "X ") == 0);
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
    ddnn_training_config bad = {
        .layers = 3,
        .forward_ns = fwd,
        .backward_ns = bwd,
        .buffers = 2,
        .buffer_of_layer = bad_of_layer,
        .buffer_lowest = lowest,
        .barrier = 1,
        .max_iterations = 1,
    };
    ddnn_training_callbacks cb = {.compute = on_compute, .buffer_ready = on_ready};
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
    ddnn_training_config cfg = {
        .layers = 3,
        .forward_ns = fwd,
        .backward_ns = bwd,
        .buffers = 2,
        .buffer_of_layer = of_layer,
        .buffer_lowest = lowest,
        .barrier = 1,
        .max_iterations = 1,
    };
    ddnn_training_callbacks cb = {
        .compute = failing_compute,
        .buffer_ready = on_ready,
        .iteration_start = on_start,
        .iteration_end = on_end,
        .finished = on_finished,
    };
    ddnn_training* t = NULL;
    events[0] = '\0';
    now_ns = 0;
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_OK);
    CHECK(ddnn_training_start(t, 0) == DDNN_ERR_NOMEM);
    CHECK(strcmp(events, "S0@0 ") == 0);                /* iteration 0 did start */
    CHECK(ddnn_training_start(t, 0) == DDNN_ERR_STATE); /* and is not started twice */
    ddnn_training_free(t);
}

/*
 * Deadlines and slack (issue: a tenant that yields by its slack). Four layers, forward
 * 40,30,20,10 ns, backward 2,4,6,8 ns, one buffer per layer in backward order: buffer b holds
 * layer 3-b. Iteration 0 starts at 0: forward ends at 100; backward readies buffer 0 at 108,
 * 1 at 114, 2 at 118, 3 at 120. A network serves one collective at a time, each taking
 * 10 ns (1000 bytes at 100 bytes/ns), in FIFO (ready) or priority (lowest layer first)
 * order. Without the barrier, buffer b's deadline is its ready time plus the backward and
 * the next forward of the layers below it: 108+102, 114+76, 118+42, 120+0; with it, every
 * deadline is the end of the backward pass, 120.
 */
static const uint64_t dl_fwd[4] = {40, 30, 20, 10}, dl_bwd[4] = {2, 4, 6, 8};
static const uint32_t dl_of_layer[4] = {3, 2, 1, 0}, dl_lowest[4] = {3, 2, 1, 0};
static uint64_t forward_start[4]; /* iteration 1's forward of each layer */
static uint64_t ready_at[4];
static uint64_t task_end; /* when the compute task in progress ends */
static ddnn_training* dl_loop;

static int
dl_compute(void* ctx, uint64_t ns)
{
    uint32_t it, layer;
    int backward;
    (void)ctx;
    pending_ns = ns;
    task_end = now_ns + ns;
    if (ddnn_training_current_task(dl_loop, &it, &layer, &backward) && it == 1 && !backward)
        forward_start[layer] = now_ns;
    return 0;
}

static int
dl_ready(void* ctx, uint32_t it, uint32_t b)
{
    (void)ctx;
    if (it == 0)
        ready_at[b] = now_ns;
    return 0;
}

/* Runs iteration 0's collectives through the one-at-a-time network and iteration 1's forward;
 * fills each buffer's deadline, its slack when its collective starts, and the forward starts. */
static void
run_network(int barrier, int priority, uint64_t deadline[4], int64_t slack_at_start[4])
{
    ddnn_training_config cfg = {
        .layers = 4,
        .forward_ns = dl_fwd,
        .backward_ns = dl_bwd,
        .buffers = 4,
        .buffer_of_layer = dl_of_layer,
        .buffer_lowest = dl_lowest,
        .barrier = barrier,
        .max_iterations = 2,
    };
    ddnn_training_callbacks cb = {.compute = dl_compute, .buffer_ready = dl_ready};
    const uint64_t collective_ns = 10, bytes = 1000;
    int served[4] = {0, 0, 0, 0};
    uint64_t network_free = 0;
    uint32_t n;
    memset(forward_start, 0, sizeof forward_start);
    memset(ready_at, 0, sizeof ready_at);
    pending_ns = 0;
    now_ns = 0;
    CHECK(ddnn_training_new(&dl_loop, &cfg, &cb, NULL) == DDNN_OK);
    CHECK(ddnn_training_start(dl_loop, 0) == DDNN_OK);
    compute_until_idle(dl_loop); /* iteration 0 computed; every buffer ready at 120 */
    for (n = 0; n < 4; n++)
    {
        /* The next collective: among buffers ready by the time the network is free (or the
         * earliest ready one), the oldest (FIFO) or the lowest layer's (priority). */
        uint64_t start = network_free;
        int pick = -1, b;
        for (b = 0; b < 4; b++)
            if (!served[b] && (pick < 0 || ready_at[b] < ready_at[pick]))
                pick = b;
        if (ready_at[pick] > start)
            start = ready_at[pick];
        for (b = 0; b < 4; b++)
            if (!served[b] && ready_at[b] <= start
                && (priority ? dl_lowest[b] < dl_lowest[pick] : ready_at[b] < ready_at[pick]))
                pick = b;
        CHECK(ddnn_training_buffer_deadline(dl_loop, 0, (uint32_t)pick, &deadline[pick])
              == DDNN_OK);
        slack_at_start[pick] = ddnn_slack_ns(deadline[pick], start, start, bytes, 0, 1e11);
        /* Half-way at the nominal rate, the achieved rate gives the same estimate. */
        CHECK(ddnn_slack_ns(deadline[pick], start + 5, start, bytes, 500, 1e11)
              == slack_at_start[pick]);
        served[pick] = 1;
        network_free = start + collective_ns;
        /* Compute tasks that end first, then the collective's end. */
        while (pending_ns && task_end <= network_free)
        {
            now_ns = task_end;
            pending_ns = 0;
            CHECK(ddnn_training_on_compute_done(dl_loop, now_ns) == DDNN_OK);
        }
        now_ns = network_free;
        CHECK(ddnn_training_on_buffer_done(dl_loop, 0, (uint32_t)pick, now_ns) == DDNN_OK);
    }
    while (pending_ns)
    {
        now_ns = task_end;
        pending_ns = 0;
        CHECK(ddnn_training_on_compute_done(dl_loop, now_ns) == DDNN_OK);
    }
    ddnn_training_free(dl_loop);
}

static void
deadlines_and_slack_by_hand(void)
{
    uint64_t deadline[4];
    int64_t slack[4];
    uint32_t l;

    /* No barrier, FIFO: collectives 108-118, 118-128, 128-138, 138-148. Buffer 3 (layer 0)
     * starts 28 ns too late for its deadline of 120, and iteration 1's forward starts 28 ns
     * after the compute-bound 120; the others have slack and never make it wait. */
    run_network(0, 0, deadline, slack);
    CHECK_U64(deadline[0], 210);
    CHECK_U64(deadline[1], 190);
    CHECK_U64(deadline[2], 160);
    CHECK_U64(deadline[3], 120);
    CHECK(slack[0] == 210 - 108 - 10 && slack[1] == 190 - 118 - 10);
    CHECK(slack[2] == 160 - 128 - 10 && slack[3] == 120 - 138 - 10);
    for (l = 0; l < 4; l++) /* compute-bound from 148 on: 148, 188, 218, 238 */
        CHECK_U64(forward_start[l], 148 + (l > 0 ? 40 : 0) + (l > 1 ? 30 : 0) + (l > 2 ? 20 : 0));

    /* No barrier, priority: 108-118 buffer 0, then buffer 2 (ready 118, lower than 1), buffer
     * 3, buffer 1. Buffer 3 is 18 ns late, so is the forward; buffer 1 keeps 42 ns. */
    run_network(0, 1, deadline, slack);
    CHECK(slack[0] == 92 && slack[2] == 160 - 118 - 10 && slack[3] == -18 && slack[1] == 42);
    CHECK_U64(forward_start[0], 120 + 18);
    CHECK_U64(forward_start[2], 138 + 40 + 30);

    /* Barrier: every deadline is 120. FIFO ends at 148, 28 ns late, and so is the forward. */
    run_network(1, 0, deadline, slack);
    for (l = 0; l < 4; l++)
        CHECK_U64(deadline[l], 120);
    CHECK(slack[0] == 2 && slack[1] == -8 && slack[2] == -18 && slack[3] == -28);
    CHECK_U64(forward_start[0], 148);
    /* Priority serves 0, 2, 3, 1: the last one still ends at 148, 28 ns late. */
    run_network(1, 1, deadline, slack);
    CHECK(slack[0] == 2 && slack[2] == -8 && slack[3] == -18 && slack[1] == -28);
    CHECK_U64(forward_start[0], 148);
}

/* Slack at the achieved rate; special cases. */
static void
slack_at_the_achieved_rate(void)
{
    ddnn_training* t = make(0, 1, 0);
    uint64_t d = 0;
    /* 1000 bytes due at 1000; 100 bytes moved in the 100 ns since the start: 900 more ns. */
    CHECK(ddnn_slack_ns(1000, 100, 0, 1000, 100, 1e9) == 0);
    /* Half the rate: 950 bytes take 1900 more ns, 1000 late. */
    CHECK(ddnn_slack_ns(1000, 100, 0, 1000, 50, 1e9) == -1000);
    /* Done: the slack is the time left. */
    CHECK(ddnn_slack_ns(1000, 400, 0, 1000, 1000, 1e9) == 600);
    /* Nothing moved yet: the nominal rate (10^9 bytes/s = 1 byte/ns). */
    CHECK(ddnn_slack_ns(5000, 1000, 1000, 1000, 0, 1e9) == 3000);
    /* A rate of 0 or an absurd estimate is clamped, not wrapped. */
    CHECK(ddnn_slack_ns(0, 0, 0, UINT64_MAX, 0, 0.0) == -4611686018427387904LL);
    /* Deadlines exist only once the buffer is ready in that iteration. */
    CHECK(ddnn_training_buffer_deadline(t, 0, 0, &d) == DDNN_ERR_STATE);
    CHECK(ddnn_training_buffer_deadline(t, 0, 2, &d) == DDNN_ERR_INVALID);
    ddnn_training_start(t, 0);
    compute_until_idle(t);
    /* The file's own 3-layer model: buffer 0 (layer 2) ready at 63, plus backward 1+2 and
     * forward 30+20 below it. */
    CHECK(ddnn_training_buffer_deadline(t, 0, 0, &d) == DDNN_OK);
    CHECK_U64(d, 63 + 3 + 50);
    CHECK(ddnn_training_buffer_deadline(t, 1, 0, &d) == DDNN_ERR_STATE);
    ddnn_training_free(t);
}

/* ddnn_training_callbacks_init, as the C++ shim uses it: every callback NULL (a table left so
 * is refused), then the ones set by name. */
static void
callbacks_init_zeroes(void)
{
    ddnn_training_config cfg = {
        .layers = 3,
        .forward_ns = fwd,
        .backward_ns = bwd,
        .buffers = 2,
        .buffer_of_layer = of_layer,
        .buffer_lowest = lowest,
    };
    ddnn_training_callbacks cb = {
        .compute = on_compute,
        .buffer_ready = on_ready,
        .iteration_start = on_start,
        .iteration_end = on_end,
        .finished = on_finished,
    };
    ddnn_training* t = NULL;
    ddnn_training_callbacks_init(&cb);
    CHECK(cb.compute == NULL && cb.buffer_ready == NULL && cb.iteration_start == NULL
          && cb.iteration_end == NULL && cb.finished == NULL);
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_ERR_INVALID);
    cb.compute = on_compute;
    cb.buffer_ready = on_ready;
    CHECK(ddnn_training_new(&t, &cfg, &cb, NULL) == DDNN_OK);
    ddnn_training_free(t);
}

int
main(void)
{
    RUN(one_iteration_in_order);
    RUN(current_task_names_each_layer);
    RUN(first_iteration_backward_only);
    RUN(barrier_waits_for_every_buffer);
    RUN(no_barrier_waits_per_layer);
    RUN(stop_time_drains);
    RUN(rejects_misuse);
    RUN(callback_errors_propagate);
    RUN(deadlines_and_slack_by_hand);
    RUN(slack_at_the_achieved_rate);
    RUN(callbacks_init_zeroes);
    return UNIT_REPORT();
}
