/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the confidence intervals: known quantiles and small cases by hand, and the
 * coverage of each method on synthetic data with a known mean (autocorrelated, heavy-tailed),
 * about 95 % over many draws.
 */
#include "ddnn-interval.h"
#include "ddnn-unit.h"

#include <math.h>
#include <stdlib.h>

/* The tests' own generator (splitmix64), independent of the bootstrap's. */
static uint64_t test_state = 12345;

static double
uniform(void)
{
    uint64_t z = (test_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0) + 1e-18;
}

static double
normal(void)
{
    return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

static void
t_quantiles_match_the_tables(void)
{
    double t;
    CHECK(ddnn_t_quantile(0.975, 1, &t) == DDNN_OK);
    CHECK_NEAR(t, 12.7062, 1e-4);
    ddnn_t_quantile(0.975, 4, &t);
    CHECK_NEAR(t, 2.7764, 1e-4);
    ddnn_t_quantile(0.975, 9, &t);
    CHECK_NEAR(t, 2.2622, 1e-4);
    ddnn_t_quantile(0.95, 30, &t);
    CHECK_NEAR(t, 1.6973, 1e-4);
    ddnn_t_quantile(0.025, 9, &t);
    CHECK_NEAR(t, -2.2622, 1e-4);
    ddnn_t_quantile(0.975, 1e9, &t);
    CHECK_NEAR(t, 1.95996, 1e-5);
    CHECK(ddnn_t_quantile(1, 3, &t) == DDNN_ERR_INVALID);
    CHECK(ddnn_t_quantile(0.5, 0, &t) == DDNN_ERR_INVALID);
}

static void
median_of_odd_and_even_counts(void)
{
    const double x[] = {5, 1, 4, 2, 3, 100};
    CHECK_NEAR(ddnn_median(x, 5), 3, 0);
    CHECK_NEAR(ddnn_median(x, 6), 3.5, 0);
    CHECK(isnan(ddnn_median(x, 0)));
}

/* Below 20 samples each is a batch: 1..5 has mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764. */
static void
few_samples_are_their_own_batches(void)
{
    const double x[] = {1, 2, 3, 4, 5};
    ddnn_interval i;
    CHECK(ddnn_batch_means(x, 5, 0.95, &i) == DDNN_OK);
    CHECK_U64(i.batches, 5);
    CHECK_U64(i.samples, 5);
    CHECK_NEAR(i.estimate, 3, 1e-12);
    CHECK_NEAR(i.se, sqrt(2.5 / 5), 1e-12);
    CHECK_NEAR(i.high - i.estimate, 2.7764 * sqrt(0.5), 1e-3);
    CHECK_NEAR(i.estimate - i.low, i.high - i.estimate, 1e-12);
    /* one sample: a mean, no interval; none: nothing */
    CHECK(ddnn_batch_means(x, 1, 0.95, &i) == DDNN_OK);
    CHECK(i.estimate == 1 && isnan(i.low) && isnan(i.high));
    CHECK(ddnn_batch_means(NULL, 0, 0.95, &i) == DDNN_OK);
    CHECK(isnan(i.estimate) && i.samples == 0);
    CHECK(ddnn_batch_means(x, 5, 0, &i) == DDNN_ERR_INVALID);
    CHECK(ddnn_batch_means(x, 5, 1, &i) == DDNN_ERR_INVALID);
    CHECK(ddnn_batch_means(x, 5, NAN, &i) == DDNN_ERR_INVALID);
}

/* 25 samples: ten batches would be of 2.5; floor(25 / 10) = 2, so 12 batches, 1 left out. */
static void
many_samples_form_batches(void)
{
    double x[25];
    ddnn_interval i;
    int k;
    for (k = 0; k < 25; k++)
        x[k] = k;
    CHECK(ddnn_batch_means(x, 25, 0.95, &i) == DDNN_OK);
    CHECK_U64(i.batches, 12);
    CHECK_NEAR(i.estimate, 12, 1e-12); /* the mean is of every sample */
    CHECK_NEAR(i.df, 11, 0);
}

/*
 * AR(1) with phi = 0.5 around 10 (sd of the noise 1), 200 samples: batch means cover the mean
 * about 95 % of the time; treating the samples as independent covers it far less (the
 * variance of the mean is (1 + phi) / (1 - phi) = 3 times the independent one).
 */
static void
batch_means_cover_an_autocorrelated_mean(void)
{
    const int draws = 2000, n = 200;
    int covered = 0, naive = 0, d, k;
    double x[200];
    for (d = 0; d < draws; d++)
    {
        double e = normal() / sqrt(1 - 0.25), sum = 0, squares = 0, t;
        ddnn_interval i;
        for (k = 0; k < n; k++)
        {
            e = 0.5 * e + normal();
            x[k] = 10 + e;
            sum += x[k];
        }
        ddnn_batch_means(x, n, 0.95, &i);
        covered += i.low <= 10 && 10 <= i.high;
        for (k = 0; k < n; k++)
            squares += (x[k] - sum / n) * (x[k] - sum / n);
        ddnn_t_quantile(0.975, n - 1, &t);
        naive += fabs(sum / n - 10) <= t * sqrt(squares / (n - 1) / n);
    }
    CHECK((double)covered / draws > 0.925 && (double)covered / draws < 0.975);
    CHECK((double)naive / draws < 0.85);
}

/* Two independent runs, normal periods (mean 100, sd 20 vs mean 150, sd 40; 30 each):
 * the delta-method interval of the change covers +50 % about 95 % of the time. */
static void
change_of_means_covers_the_true_change(void)
{
    const int draws = 2000;
    int covered = 0, d, k;
    double a[30], b[30];
    for (d = 0; d < draws; d++)
    {
        ddnn_interval ia, ib, change;
        for (k = 0; k < 30; k++)
        {
            a[k] = 100 + 20 * normal();
            b[k] = 150 + 40 * normal();
        }
        ddnn_batch_means(a, 30, 0.95, &ia);
        ddnn_batch_means(b, 30, 0.95, &ib);
        CHECK(ddnn_change_of_means(&ia, &ib, 0.95, &change) == DDNN_OK);
        covered += change.low <= 50 && 50 <= change.high;
    }
    CHECK((double)covered / draws > 0.925 && (double)covered / draws < 0.975);
}

/* Halving: -50 %; a wide interval stays above -100 % (the log ratio) and is skewed upwards. */
static void
change_interval_is_that_of_a_ratio(void)
{
    ddnn_interval first = {100, 0, 0, 10, 9, 10, 10}, second = {50, 0, 0, 40, 4, 5, 5}, change;
    CHECK(ddnn_change_of_means(&first, &second, 0.95, &change) == DDNN_OK);
    CHECK_NEAR(change.estimate, -50, 1e-12);
    CHECK(change.low > -100 && change.low < -50);
    CHECK(change.high - change.estimate > change.estimate - change.low);
}

static void
change_without_a_first_figure_is_missing(void)
{
    ddnn_interval zero = {0, 0, 0, 0, 1, 2, 0}, some = {1, 0.5, 1.5, 0.2, 3, 4, 4}, change;
    CHECK(ddnn_change_of_means(&zero, &some, 0.95, &change) == DDNN_OK);
    CHECK(isnan(change.estimate) && isnan(change.low));
}

/*
 * Log-normal FCTs (mu 0, sigma 1: mean e^0.5, heavy right tail), 400 flows: the bootstrap
 * interval of the mean covers it about 95 % of the time (a little less: the tail).
 */
static void
bootstrap_covers_a_heavy_tailed_mean(void)
{
    const int draws = 300, n = 400;
    int covered = 0, d, k;
    double x[400];
    for (d = 0; d < draws; d++)
    {
        ddnn_interval i;
        for (k = 0; k < n; k++)
            x[k] = exp(normal());
        ddnn_bootstrap(x, n, DDNN_STATISTIC_MEAN, 0.95, 1, &i);
        covered += i.low <= exp(0.5) && exp(0.5) <= i.high;
    }
    CHECK((double)covered / draws > 0.89 && (double)covered / draws < 0.98);
}

/*
 * The same 400 flows in two runs, the second's FCT 1.2 x the first's times a factor of mean 1
 * (log-normal, sigma 0.5): the paired interval of the mean's change covers +20 % about 95 %
 * of the time.
 */
static void
paired_bootstrap_covers_the_true_change(void)
{
    const int draws = 300, n = 400;
    int covered = 0, d, k;
    double a[400], b[400];
    for (d = 0; d < draws; d++)
    {
        ddnn_interval i;
        for (k = 0; k < n; k++)
        {
            a[k] = exp(normal());
            b[k] = 1.2 * a[k] * exp(0.5 * normal() - 0.125);
        }
        ddnn_bootstrap_paired_change(a, b, n, DDNN_STATISTIC_MEAN, 0.95, 7, &i);
        covered += i.low <= 20 && 20 <= i.high;
    }
    CHECK((double)covered / draws > 0.89 && (double)covered / draws < 0.98);
}

/* Every flow 1.5 x slower: the change is +50 % in every resample, for the mean and the p99. */
static void
paired_change_of_a_uniform_slowdown_is_exact(void)
{
    double a[300], b[300];
    ddnn_interval mean, p99, again;
    int k;
    for (k = 0; k < 300; k++)
    {
        a[k] = exp(normal());
        b[k] = 1.5 * a[k];
    }
    ddnn_bootstrap_paired_change(a, b, 300, DDNN_STATISTIC_MEAN, 0.95, 3, &mean);
    ddnn_bootstrap_paired_change(a, b, 300, DDNN_STATISTIC_P99, 0.95, 3, &p99);
    CHECK_NEAR(mean.estimate, 50, 1e-9);
    CHECK_NEAR(mean.low, 50, 1e-9);
    CHECK_NEAR(mean.high, 50, 1e-9);
    CHECK_NEAR(p99.low, 50, 1e-9);
    CHECK_U64(mean.samples, 300);
    /* the same seed, the same figures */
    ddnn_bootstrap_paired_change(a, b, 300, DDNN_STATISTIC_P99, 0.95, 3, &again);
    CHECK(again.low == p99.low && again.high == p99.high);
}

/* The p99 estimate is the nearest rank, as the flow statistics print it. */
static void
bootstrap_p99_is_the_nearest_rank(void)
{
    double x[100];
    ddnn_interval i;
    int k;
    for (k = 0; k < 100; k++)
        x[k] = (100 - k) * 1e-3;
    ddnn_bootstrap(x, 100, DDNN_STATISTIC_P99, 0.95, 1, &i);
    CHECK_NEAR(i.estimate, 0.099, 1e-12);
    CHECK(i.low <= i.estimate && i.estimate <= i.high);
    CHECK(ddnn_bootstrap(x, 100, (ddnn_statistic)7, 0.95, 1, &i) == DDNN_ERR_INVALID);
    /* 99 samples: the p99 is the largest, with no interval */
    ddnn_bootstrap(x + 1, 99, DDNN_STATISTIC_P99, 0.95, 1, &i);
    CHECK_NEAR(i.estimate, 0.099, 1e-12);
    CHECK(isnan(i.low) && isnan(i.high));
}

static void
samples_factor_follows_the_square_root(void)
{
    ddnn_interval i = {10, 6, 14, 2, 9, 10, 10};
    CHECK_NEAR(ddnn_samples_factor(&i, 2), 4, 1e-12);
    CHECK_NEAR(ddnn_samples_factor(&i, 8), 1, 0); /* already within: at least 1 */
    CHECK(isinf(ddnn_samples_factor(&i, 0)));
    i.low = NAN;
    CHECK(isnan(ddnn_samples_factor(&i, 2)));
}

int
main(void)
{
    RUN(t_quantiles_match_the_tables);
    RUN(median_of_odd_and_even_counts);
    RUN(few_samples_are_their_own_batches);
    RUN(many_samples_form_batches);
    RUN(batch_means_cover_an_autocorrelated_mean);
    RUN(change_of_means_covers_the_true_change);
    RUN(change_interval_is_that_of_a_ratio);
    RUN(change_without_a_first_figure_is_missing);
    RUN(bootstrap_covers_a_heavy_tailed_mean);
    RUN(paired_bootstrap_covers_the_true_change);
    RUN(paired_change_of_a_uniform_slowdown_is_exact);
    RUN(bootstrap_p99_is_the_nearest_rank);
    RUN(samples_factor_follows_the_square_root);
    return UNIT_REPORT();
}
