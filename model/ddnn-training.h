/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Training loop of one worker (thesis ch. 4.5): forward layers 0..L-1, then
 * backward L-1..0, one compute task at a time. A fusion buffer is ready when
 * the backward pass of all its layers is done (that is, of its lowest layer,
 * since backward runs from the last layer down). The buffer's collective
 * (ddnn-collective.h) runs elsewhere; the host reports each finished buffer with
 * ddnn_training_on_buffer_done.
 *
 * Next iteration: with the inter-iteration barrier, forward of layer 0 waits
 * for every buffer of the previous iteration; without it, forward of layer i
 * waits only for the buffer holding layer i (and for layer i-1).
 *
 * An iteration starts when forward of its layer 0 starts and ends when the
 * last of its buffers is done. With first_backward, iteration 0 has no forward
 * pass: it starts with the backward of the last layer, as if a forward pass had
 * run before time 0 (how the thesis code's workers begin). Time is an input: the host calls back
 * with the current simulated time in ns.
 *
 * Deadlines: when a buffer becomes ready, the loop knows when the next
 * iteration's forward pass will need it at the compute-bound pace (no waits):
 * after the backward of the layers below the buffer's lowest one, then, without
 * the barrier, the forward of those layers; with the barrier, forward of layer
 * 0 needs every buffer, so every deadline is the end of the backward pass. A
 * collective done by its deadline never makes the next forward wait.
 */
#ifndef DDNN_TRAINING_H
#define DDNN_TRAINING_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct ddnn_training ddnn_training; /* opaque */

    typedef struct
    {
        uint32_t layers;
        const uint64_t* forward_ns;  /* [layers], copied */
        const uint64_t* backward_ns; /* [layers], copied */
        uint32_t buffers;
        const uint32_t* buffer_of_layer; /* [layers] -> buffer index, copied */
        const uint32_t* buffer_lowest;   /* [buffers] -> lowest layer of the buffer, copied */
        int barrier;                     /* 1: inter-iteration barrier */
        uint32_t max_iterations;         /* 0: no limit */
        uint64_t stop_ns;                /* 0: no limit; no iteration starts at or after it */
        int first_backward;              /* 1: iteration 0 starts with the backward pass */
    } ddnn_training_config;

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the training call that triggered it
         * returns at once: the transition it reported stays recorded, nothing after it happens. */
        /* Start a compute task of duration_ns; the host calls ddnn_training_on_compute_done after
         * it. */
        int (*compute)(void* ctx, uint64_t duration_ns);
        int (*buffer_ready)(void* ctx, uint32_t iteration, uint32_t buffer);
        int (*iteration_start)(void* ctx, uint32_t iteration); /* may be NULL */
        int (*iteration_end)(void* ctx, uint32_t iteration);   /* may be NULL */
        int (*finished)(void* ctx);                            /* may be NULL */
    } ddnn_training_callbacks;

    /* Zeroes *cb (every callback NULL), for hosts that then set the callbacks by name (C++17,
     * which ns-3.37 uses, has no designated initializers). */
    void ddnn_training_callbacks_init(ddnn_training_callbacks* cb);

    int ddnn_training_new(ddnn_training** out,
                          const ddnn_training_config* cfg,
                          const ddnn_training_callbacks* cb,
                          void* ctx);
    void ddnn_training_free(ddnn_training* t);

    int ddnn_training_start(ddnn_training* t, uint64_t now_ns);
    int ddnn_training_on_compute_done(ddnn_training* t, uint64_t now_ns);
    /* Buffers of an iteration may finish in any order; iterations finish in order. */
    int ddnn_training_on_buffer_done(ddnn_training* t,
                                     uint32_t iteration,
                                     uint32_t buffer,
                                     uint64_t now_ns);

    /* The compute task in progress (from the compute callback until the host reports it done):
     * returns 1 and fills *iteration, *layer and *backward (1 for a backward pass), or 0 when
     * none runs. */
    int ddnn_training_current_task(const ddnn_training* t,
                                   uint32_t* iteration,
                                   uint32_t* layer,
                                   int* backward);
    uint32_t ddnn_training_iterations_completed(const ddnn_training* t);
    int ddnn_training_finished(const ddnn_training* t);
    /* The deadline of buffer `buffer` of `iteration` (see above): DDNN_OK and *deadline_ns once
     * the buffer is ready in that iteration (until it is ready in a later one), else
     * DDNN_ERR_STATE. */
    int ddnn_training_buffer_deadline(const ddnn_training* t,
                                      uint32_t iteration,
                                      uint32_t buffer,
                                      uint64_t* deadline_ns);

    /*
     * The slack of a buffer's collective in progress, in ns (negative: late): its deadline,
     * less now, less the time its remaining bytes take at the rate achieved since it started
     * at started_ns (bytes_done bytes so far), or at nominal_bytes_per_s before any byte
     * moved. bytes_done <= bytes_total, started_ns <= now_ns, nominal_bytes_per_s > 0; an
     * estimate beyond 2^62 ns is clamped there.
     */
    int64_t ddnn_slack_ns(uint64_t deadline_ns,
                          uint64_t now_ns,
                          uint64_t started_ns,
                          uint64_t bytes_total,
                          uint64_t bytes_done,
                          double nominal_bytes_per_s);

    /* One line saying what the worker does or waits for (for stall diagnoses). */
    void ddnn_training_describe(const ddnn_training* t, char* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_TRAINING_H */
