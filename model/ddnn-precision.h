/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sequential rule behind a run "as long as the precision asked for": Stein's two-stage
 * procedure, repeated. A stage measures its intervals (ddnn-interval.h); when every half-width
 * is within the target, the run stops. Otherwise the next stage takes the current samples
 * times the largest growth ddnn_samples_factor asks for, times DDNN_PRECISION_MARGIN (the
 * spread behind that growth is itself an estimate), and at least DDNN_PRECISION_MIN_GROWTH
 * times (a stage barely longer than the last is not worth running), within the cap. A stage
 * the cap cannot make at least that much longer ends the run: the cap, not the precision,
 * ended it. test/c/test-precision.c checks the rule's coverage on synthetic series.
 */
#ifndef DDNN_PRECISION_H
#define DDNN_PRECISION_H

#include "ddnn-interval.h"

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_PRECISION_MARGIN       1.2
#define DDNN_PRECISION_MIN_GROWTH   1.5
/* The growth of a stage without an interval yet (too few samples to estimate the spread). */
#define DDNN_PRECISION_BLIND_GROWTH 4.0

    typedef enum
    {
        DDNN_PRECISION_REACHED, /* every half-width within the target: stop */
        DDNN_PRECISION_GROW,    /* run a stage `growth` times as long */
        DDNN_PRECISION_CAPPED   /* the cap allows no stage long enough: stop short of it */
    } ddnn_precision_step;

    /*
     * The step after a stage whose intervals are intervals[0..count) (count > 0), with the
     * target half-width (> 0, in the intervals' unit) and the cap as the largest growth of
     * the samples it allows (max_growth >= 0). *growth is the next stage's growth (GROW),
     * else 1.
     */
    int ddnn_precision_next(const ddnn_interval* intervals,
                            size_t count,
                            double target,
                            double max_growth,
                            ddnn_precision_step* step,
                            double* growth);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_PRECISION_H */
