/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Confidence intervals of the figures a run compares, computed after the simulation from its
 * samples (never per packet). One method per kind of figure:
 *
 * - A mean of a series whose samples are autocorrelated (a run's iteration periods): batch
 *   means. Below 20 samples every sample is its own batch (too few to estimate the
 *   correlation; the interval is then that of independent samples); from 20 on, ten batches
 *   of floor(n / 10) consecutive samples (the first n mod 10 samples, the nearest the
 *   warm-up, are left out of the batches, not of the mean). The interval is the batches'
 *   mean +- t(level, b - 1) x their standard error.
 * - The relative change between two such means from independent runs (low vs same
 *   priority): the delta method on the log of the ratio second / first, with
 *   Welch-Satterthwaite degrees of freedom, taken back to percent (so it never reaches
 *   -100 % and is skewed as a ratio is).
 * - A mean or a percentile of heavy-tailed samples (flow completion times), and its change
 *   over the same samples measured twice (the same flows in two runs): the percentile
 *   bootstrap over the samples (pairs resampled together), DDNN_BOOTSTRAP_RESAMPLES
 *   resamples from a fixed seed, so a figure is the same at every run.
 *
 * A change is in percent of the first figure: (second - first) / first x 100.
 */
#ifndef DDNN_INTERVAL_H
#define DDNN_INTERVAL_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_BOOTSTRAP_RESAMPLES     2000
#define DDNN_BATCH_MEANS_BATCHES     10
#define DDNN_BATCH_MEANS_MIN_SAMPLES 20

    typedef struct
    {
        double estimate;  /* NAN without a sample: missing, not 0 */
        double low, high; /* NAN where no interval exists (fewer than two samples) */
        double se;        /* standard error of the estimate; NAN where unknown */
        double df;        /* degrees of freedom of its t quantile; INFINITY for the bootstrap */
        uint64_t samples; /* the samples behind the estimate (pairs, for a paired change) */
        uint32_t batches; /* batch means: the batches; otherwise 0 */
    } ddnn_interval;

    typedef enum
    {
        DDNN_STATISTIC_MEAN,
        DDNN_STATISTIC_P99 /* nearest rank, as ddnn-flow-stats.h */
    } ddnn_statistic;

    /* The p-quantile of Student's t with df > 0 degrees of freedom (p in (0, 1)). */
    int ddnn_t_quantile(double p, double df, double* out);

    /* The median of n samples (the mean of the two middle ones for even n); NAN for n = 0. */
    double ddnn_median(const double* x, size_t n);

    /* The mean of a series of n samples, its interval at `level` (in (0, 1)) by batch means. */
    int ddnn_batch_means(const double* x, size_t n, double level, ddnn_interval* out);

    /*
     * The change in percent from mean `first` to mean `second` (each from ddnn_batch_means of
     * an independent run), with its interval at `level` (delta method, Welch-Satterthwaite).
     */
    int ddnn_change_of_means(const ddnn_interval* first,
                             const ddnn_interval* second,
                             double level,
                             ddnn_interval* out);

    /* The statistic of n samples and its percentile-bootstrap interval at `level` (a p99 has
     * none below 100 samples: it is then their largest, which resampling cannot bound). */
    int ddnn_bootstrap(const double* x,
                       size_t n,
                       ddnn_statistic statistic,
                       double level,
                       uint64_t seed,
                       ddnn_interval* out);

    /*
     * The change in percent of the statistic from first[] to second[], n pairs (sample i
     * measured twice), with its percentile-bootstrap interval at `level`.
     */
    int ddnn_bootstrap_paired_change(const double* first,
                                     const double* second,
                                     size_t n,
                                     ddnn_statistic statistic,
                                     double level,
                                     uint64_t seed,
                                     ddnn_interval* out);

    /*
     * How many times the samples behind an interval must grow for its half-width to shrink
     * to `half_width` (the half-width falls as one over the square root of the samples):
     * ((high - low) / 2 / half_width)^2, at least 1; INFINITY where half_width <= 0 and NAN
     * without an interval.
     */
    double ddnn_samples_factor(const ddnn_interval* interval, double half_width);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_INTERVAL_H */
