/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-training.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum
{
    PHASE_IDLE,     /* not started */
    PHASE_FORWARD,  /* computing forward of `layer` */
    PHASE_WAIT,     /* forward of `layer` waits for gradients of the previous iteration */
    PHASE_BACKWARD, /* computing backward of `layer` */
    PHASE_DRAINING, /* no more iterations start; waiting for the last buffers */
    PHASE_FINISHED
} phase;

struct ddnn_training
{
    ddnn_training_callbacks cb;
    void* ctx;
    uint32_t layers, buffers;
    uint64_t *forward_ns, *backward_ns;
    uint32_t *buffer_of_layer, *buffer_lowest;
    int barrier;
    int first_backward;
    uint32_t max_iterations;
    uint64_t stop_ns;

    phase phase;
    uint32_t layer;           /* layer of the current or awaited compute task */
    uint32_t iteration;       /* iteration being computed */
    uint32_t started;         /* iterations started */
    uint32_t completed;       /* iterations whose buffers are all done */
    int64_t* done_iteration;  /* per buffer: last iteration whose collective is done, -1 none */
    int64_t* ready_iteration; /* per buffer: last iteration in which it became ready, -1 none */
    uint64_t* deadline_ns;    /* per buffer: its deadline in ready_iteration */
    uint64_t* lead_ns; /* per buffer: compute-bound time from ready to the next forward's need */
    uint32_t done_in_oldest; /* buffers done of iteration `completed` */
};

static void*
copy_array(const void* src, size_t bytes)
{
    void* dst = malloc(bytes ? bytes : 1);
    if (dst && bytes)
        memcpy(dst, src, bytes);
    return dst;
}

void
ddnn_training_free(ddnn_training* t)
{
    if (t)
    {
        free(t->forward_ns);
        free(t->backward_ns);
        free(t->buffer_of_layer);
        free(t->buffer_lowest);
        free(t->done_iteration);
        free(t->ready_iteration);
        free(t->deadline_ns);
        free(t->lead_ns);
        free(t);
    }
}

void
ddnn_training_callbacks_init(ddnn_training_callbacks* cb)
{
    *cb = (ddnn_training_callbacks){0}; /* a null pointer per callback */
}

int
ddnn_training_new(ddnn_training** out,
                  const ddnn_training_config* cfg,
                  const ddnn_training_callbacks* cb,
                  void* ctx)
{
    ddnn_training* t;
    uint32_t i;
    if (!out || !cfg || !cb || !cb->compute || !cb->buffer_ready || cfg->layers == 0
        || cfg->buffers == 0 || !cfg->forward_ns || !cfg->backward_ns || !cfg->buffer_of_layer
        || !cfg->buffer_lowest)
        return DDNN_ERR_INVALID;
    for (i = 0; i < cfg->layers; i++)
        if (cfg->buffer_of_layer[i] >= cfg->buffers)
            return DDNN_ERR_INVALID;
    t = calloc(1, sizeof *t);
    if (!t)
        return DDNN_ERR_NOMEM;
    t->cb = *cb;
    t->ctx = ctx;
    t->layers = cfg->layers;
    t->buffers = cfg->buffers;
    t->forward_ns = copy_array(cfg->forward_ns, cfg->layers * sizeof(uint64_t));
    t->backward_ns = copy_array(cfg->backward_ns, cfg->layers * sizeof(uint64_t));
    t->buffer_of_layer = copy_array(cfg->buffer_of_layer, cfg->layers * sizeof(uint32_t));
    t->buffer_lowest = copy_array(cfg->buffer_lowest, cfg->buffers * sizeof(uint32_t));
    t->done_iteration = malloc(cfg->buffers * sizeof(int64_t));
    t->ready_iteration = malloc(cfg->buffers * sizeof(int64_t));
    t->deadline_ns = calloc(cfg->buffers, sizeof(uint64_t));
    t->lead_ns = calloc(cfg->buffers, sizeof(uint64_t));
    if (!t->forward_ns || !t->backward_ns || !t->buffer_of_layer || !t->buffer_lowest
        || !t->done_iteration || !t->ready_iteration || !t->deadline_ns || !t->lead_ns)
    {
        ddnn_training_free(t);
        return DDNN_ERR_NOMEM;
    }
    for (i = 0; i < cfg->buffers; i++)
    {
        /* Backward of the layers below the buffer, then (without the barrier) their forward.
         * The profile reader caps a profile's compute at 10^15 ns, so no sum wraps. */
        uint32_t layer, lowest = cfg->buffer_lowest[i];
        if (lowest >= cfg->layers)
        {
            ddnn_training_free(t);
            return DDNN_ERR_INVALID;
        }
        for (layer = 0; layer < lowest; layer++)
            t->lead_ns[i] += cfg->backward_ns[layer] + (cfg->barrier ? 0 : cfg->forward_ns[layer]);
        t->done_iteration[i] = -1;
        t->ready_iteration[i] = -1;
    }
    t->barrier = cfg->barrier;
    t->first_backward = cfg->first_backward;
    t->max_iterations = cfg->max_iterations;
    t->stop_ns = cfg->stop_ns;
    *out = t;
    return DDNN_OK;
}

static int
finish_if_drained(ddnn_training* t)
{
    if (t->phase == PHASE_DRAINING && t->completed == t->started)
    {
        t->phase = PHASE_FINISHED;
        if (t->cb.finished)
            return t->cb.finished(t->ctx);
    }
    return DDNN_OK;
}

/* Whether the gradients forward of `layer` in iteration t->iteration needs have arrived. */
static int
gradients_ready(const ddnn_training* t, uint32_t layer)
{
    int64_t previous = (int64_t)t->iteration - 1;
    if (t->iteration == 0)
        return 1;
    if (t->barrier)
        return t->completed >= t->iteration;
    return t->done_iteration[t->buffer_of_layer[layer]] >= previous;
}

/* Counts iteration t->iteration as started and tells the host. */
static int
count_start(ddnn_training* t)
{
    t->started++;
    return t->cb.iteration_start ? t->cb.iteration_start(t->ctx, t->iteration) : DDNN_OK;
}

/* Starts forward of `layer` (of t->iteration) if its gradients are there, else waits. */
static int
try_forward(ddnn_training* t, uint32_t layer)
{
    int rc;
    t->layer = layer;
    if (!gradients_ready(t, layer))
    {
        t->phase = PHASE_WAIT;
        return DDNN_OK;
    }
    t->phase = PHASE_FORWARD;
    if (layer == 0 && (rc = count_start(t)) < 0)
        return rc;
    return t->cb.compute(t->ctx, t->forward_ns[layer]);
}

/* Starts the backward pass of t->iteration from the last layer; counts the iteration as
 * started first when it has no forward pass. */
static int
start_backward(ddnn_training* t, int counts_start)
{
    int rc;
    t->phase = PHASE_BACKWARD;
    t->layer = t->layers - 1;
    if (counts_start && (rc = count_start(t)) < 0)
        return rc;
    return t->cb.compute(t->ctx, t->backward_ns[t->layer]);
}

/* Begins iteration t->iteration unless the limit or the stop time says no. */
static int
next_iteration(ddnn_training* t, uint64_t now_ns)
{
    if ((t->max_iterations && t->iteration >= t->max_iterations)
        || (t->stop_ns && now_ns >= t->stop_ns))
    {
        t->phase = PHASE_DRAINING;
        return finish_if_drained(t);
    }
    if (t->iteration == 0 && t->first_backward)
        return start_backward(t, 1);
    return try_forward(t, 0);
}

int
ddnn_training_start(ddnn_training* t, uint64_t now_ns)
{
    if (!t)
        return DDNN_ERR_INVALID;
    if (t->phase != PHASE_IDLE)
        return DDNN_ERR_STATE;
    t->iteration = 0;
    return next_iteration(t, now_ns);
}

int
ddnn_training_on_compute_done(ddnn_training* t, uint64_t now_ns)
{
    uint32_t layer;
    if (!t)
        return DDNN_ERR_INVALID;
    layer = t->layer;
    if (t->phase == PHASE_FORWARD)
    {
        if (layer + 1 < t->layers)
            return try_forward(t, layer + 1);
        return start_backward(t, 0);
    }
    if (t->phase != PHASE_BACKWARD)
        return DDNN_ERR_STATE;
    /* The next step first, so that a failing callback leaves the state past this layer. */
    if (layer > 0)
        t->layer = layer - 1;
    else
        t->iteration++;
    {
        uint32_t buffer = t->buffer_of_layer[layer];
        uint32_t iteration = layer > 0 ? t->iteration : t->iteration - 1;
        int rc;
        if (t->buffer_lowest[buffer] == layer)
        {
            t->ready_iteration[buffer] = iteration;
            t->deadline_ns[buffer] = now_ns + t->lead_ns[buffer];
            if ((rc = t->cb.buffer_ready(t->ctx, iteration, buffer)) < 0)
                return rc;
        }
    }
    if (layer > 0)
        return t->cb.compute(t->ctx, t->backward_ns[t->layer]);
    return next_iteration(t, now_ns);
}

int
ddnn_training_on_buffer_done(ddnn_training* t, uint32_t iteration, uint32_t buffer, uint64_t now_ns)
{
    (void)now_ns;
    if (!t || buffer >= t->buffers)
        return DDNN_ERR_INVALID;
    /* Only the oldest unfinished iteration has buffers in flight, each at most once. */
    if (iteration != t->completed || iteration >= t->started
        || t->done_iteration[buffer] >= (int64_t)iteration)
        return DDNN_ERR_STATE;
    t->done_iteration[buffer] = iteration;
    if (++t->done_in_oldest == t->buffers)
    {
        int rc;
        t->done_in_oldest = 0;
        t->completed++;
        if (t->cb.iteration_end && (rc = t->cb.iteration_end(t->ctx, iteration)) < 0)
            return rc;
    }
    if (t->phase == PHASE_WAIT)
        return try_forward(t, t->layer);
    return finish_if_drained(t);
}

int
ddnn_training_buffer_deadline(const ddnn_training* t,
                              uint32_t iteration,
                              uint32_t buffer,
                              uint64_t* deadline_ns)
{
    if (!t || !deadline_ns || buffer >= t->buffers)
        return DDNN_ERR_INVALID;
    if (t->ready_iteration[buffer] != (int64_t)iteration)
        return DDNN_ERR_STATE;
    *deadline_ns = t->deadline_ns[buffer];
    return DDNN_OK;
}

int64_t
ddnn_slack_ns(uint64_t deadline_ns,
              uint64_t now_ns,
              uint64_t started_ns,
              uint64_t bytes_total,
              uint64_t bytes_done,
              double nominal_bytes_per_s)
{
    const double cap = 4611686018427387904.0; /* 2^62 */
    uint64_t remaining = bytes_total > bytes_done ? bytes_total - bytes_done : 0;
    double needed;
    if (remaining == 0)
        needed = 0;
    else if (bytes_done > 0 && now_ns > started_ns)
        needed = (double)remaining * (double)(now_ns - started_ns) / (double)bytes_done;
    else
        needed = (double)remaining * 1e9 / nominal_bytes_per_s;
    needed += (double)now_ns - (double)deadline_ns;
    if (!(needed < cap)) /* also NaN, from a rate of 0 */
        needed = cap;
    if (needed < -cap)
        needed = -cap;
    return -(int64_t)needed;
}

uint32_t
ddnn_training_iterations_completed(const ddnn_training* t)
{
    return t->completed;
}

int
ddnn_training_finished(const ddnn_training* t)
{
    return t->phase == PHASE_FINISHED;
}

void
ddnn_training_describe(const ddnn_training* t, char* out, size_t size)
{
    switch (t->phase)
    {
        case PHASE_IDLE:
            snprintf(out, size, "not started");
            break;
        case PHASE_FORWARD:
            snprintf(
                out, size, "iteration %u: computing forward of layer %u", t->iteration, t->layer);
            break;
        case PHASE_BACKWARD:
            snprintf(
                out, size, "iteration %u: computing backward of layer %u", t->iteration, t->layer);
            break;
        case PHASE_WAIT:
            if (t->barrier)
                snprintf(
                    out,
                    size,
                    "iteration %u: forward waits at the barrier for %u buffer(s) of iteration %u",
                    t->iteration,
                    t->buffers - t->done_in_oldest,
                    t->iteration - 1);
            else
                snprintf(out,
                         size,
                         "iteration %u: forward of layer %u waits for buffer %u of iteration %u",
                         t->iteration,
                         t->layer,
                         t->buffer_of_layer[t->layer],
                         t->iteration - 1);
            break;
        case PHASE_DRAINING:
            snprintf(out,
                     size,
                     "no more iterations; waiting for %u buffer(s) of iteration %u",
                     t->buffers - t->done_in_oldest,
                     t->completed);
            break;
        case PHASE_FINISHED:
            snprintf(out, size, "finished %u iteration(s)", t->completed);
            break;
    }
}

int
ddnn_training_current_task(const ddnn_training* t,
                           uint32_t* iteration,
                           uint32_t* layer,
                           int* backward)
{
    if (t->phase != PHASE_FORWARD && t->phase != PHASE_BACKWARD)
        return 0;
    *iteration = t->iteration;
    *layer = t->layer;
    *backward = t->phase == PHASE_BACKWARD;
    return 1;
}
