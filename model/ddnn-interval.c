/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-interval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
level_valid(double level)
{
    return level > 0 && level < 1;
}

static void
set_missing(ddnn_interval* out)
{
    out->estimate = out->low = out->high = out->se = NAN;
    out->df = NAN;
    out->samples = 0;
    out->batches = 0;
}

/* The continued fraction of the regularized incomplete beta function (modified Lentz). */
static double
beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1), h;
    int m;
    d = 1 / (fabs(d) < tiny ? tiny : d);
    h = d;
    for (m = 1; m <= 500; m++)
    {
        double m2 = 2.0 * m;
        double terms[2] = {m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                           -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))};
        int k;
        for (k = 0; k < 2; k++)
        {
            d = 1 + terms[k] * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + terms[k] / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            if (k == 1 && fabs(d * c - 1) < 1e-15)
                return h;
        }
    }
    return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double
incomplete_beta(double a, double b, double x)
{
    double front;
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
    /* The fraction converges fast on this side of the mean; use the symmetry otherwise. */
    if (x < (a + 1) / (a + b + 2))
        return front * beta_fraction(a, b, x) / a;
    return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom (the normal's above 1e7). */
static double
t_cdf(double t, double df)
{
    double tail;
    if (df > 1e7)
        return 0.5 * erfc(-t / sqrt(2.0));
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? 1 - tail : tail;
}

int
ddnn_t_quantile(double p, double df, double* out)
{
    double lo = 0, hi = 1;
    int i;
    if (!out || !(p > 0 && p < 1) || !(df > 0))
        return DDNN_ERR_INVALID;
    if (p < 0.5)
    {
        int rc = ddnn_t_quantile(1 - p, df, out);
        *out = -*out;
        return rc;
    }
    while (t_cdf(hi, df) < p && hi < 1e12)
        hi *= 2;
    for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++)
    {
        double mid = (lo + hi) / 2;
        if (t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    *out = (lo + hi) / 2;
    return DDNN_OK;
}

static int
by_value(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

double
ddnn_median(const double* x, size_t n)
{
    double* sorted;
    double m;
    if (!x || n == 0)
        return NAN;
    sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return NAN;
    memcpy(sorted, x, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    m = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    free(sorted);
    return m;
}

int
ddnn_batch_means(const double* x, size_t n, double level, ddnn_interval* out)
{
    size_t size, batches, skip, b, i;
    double sum = 0, mean_of_batches = 0, squares = 0, t;
    if (!out || (n && !x) || !level_valid(level))
        return DDNN_ERR_INVALID;
    set_missing(out);
    out->samples = n;
    if (n == 0)
        return DDNN_OK;
    for (i = 0; i < n; i++)
        sum += x[i];
    out->estimate = sum / (double)n;
    size = n < DDNN_BATCH_MEANS_MIN_SAMPLES ? 1 : n / DDNN_BATCH_MEANS_BATCHES;
    batches = n / size;
    skip = n - batches * size;
    out->batches = (uint32_t)batches;
    if (batches < 2)
        return DDNN_OK;
    for (b = 0; b < batches; b++)
    {
        double batch = 0;
        for (i = 0; i < size; i++)
            batch += x[skip + b * size + i];
        mean_of_batches += batch / (double)size;
    }
    mean_of_batches /= (double)batches;
    for (b = 0; b < batches; b++)
    {
        double batch = 0;
        for (i = 0; i < size; i++)
            batch += x[skip + b * size + i];
        batch = batch / (double)size - mean_of_batches;
        squares += batch * batch;
    }
    out->df = (double)(batches - 1);
    out->se = sqrt(squares / out->df / (double)batches);
    ddnn_t_quantile(0.5 + level / 2, out->df, &t);
    out->low = out->estimate - t * out->se;
    out->high = out->estimate + t * out->se;
    return DDNN_OK;
}

int
ddnn_change_of_means(const ddnn_interval* first,
                     const ddnn_interval* second,
                     double level,
                     ddnn_interval* out)
{
    double ratio, c1, c2, t;
    if (!first || !second || !out || !level_valid(level))
        return DDNN_ERR_INVALID;
    set_missing(out);
    out->samples = first->samples < second->samples ? first->samples : second->samples;
    if (!(first->estimate != 0) || isnan(first->estimate) || isnan(second->estimate))
        return DDNN_OK;
    ratio = second->estimate / first->estimate;
    out->estimate = (ratio - 1) * 100;
    if (isnan(first->se) || isnan(second->se) || !(first->df > 0) || !(second->df > 0)
        || !(ratio > 0))
        return DDNN_OK;
    /* On the log of the ratio: var ~ (se1 / m1)^2 + (se2 / m2)^2, two independent parts; the
     * interval, taken back, stays above -100 % and is as skewed as a ratio is. */
    c1 = pow(first->se / first->estimate, 2);
    c2 = pow(second->se / second->estimate, 2);
    out->se = ratio * sqrt(c1 + c2) * 100;
    out->df = c1 + c2 > 0 ? (c1 + c2) * (c1 + c2) / (c1 * c1 / first->df + c2 * c2 / second->df)
                          : first->df + second->df;
    ddnn_t_quantile(0.5 + level / 2, out->df, &t);
    out->low = (ratio * exp(-t * sqrt(c1 + c2)) - 1) * 100;
    out->high = (ratio * exp(t * sqrt(c1 + c2)) - 1) * 100;
    return DDNN_OK;
}

/* splitmix64: a small, fixed generator, so every bootstrap is reproducible. */
static uint64_t
next_random(uint64_t* state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The k-th smallest (0-based) of x[0..n), reordering x (Wirth's selection). */
static double
select_kth(double* x, size_t n, size_t k)
{
    long lo = 0, hi = (long)n - 1, target = (long)k;
    while (lo < hi)
    {
        double pivot = x[target];
        long i = lo, j = hi;
        do
        {
            while (x[i] < pivot)
                i++;
            while (pivot < x[j])
                j--;
            if (i <= j)
            {
                double swap = x[i];
                x[i++] = x[j];
                x[j--] = swap;
            }
        } while (i <= j);
        if (j < target)
            lo = i;
        if (target < i)
            hi = j;
    }
    return x[k];
}

/* The statistic of x[0..n) (n > 0); may reorder x. */
static double
statistic_of(double* x, size_t n, ddnn_statistic statistic)
{
    double sum = 0;
    size_t i, rank;
    if (statistic == DDNN_STATISTIC_P99)
    {
        rank = (size_t)ceil(0.99 * (double)n);
        return select_kth(x, n, (rank < 1 ? 1 : rank) - 1);
    }
    for (i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

/* The percentile interval of `values` (count of them; sorted here) at level. */
static void
percentile_interval(double* values, size_t count, double level, ddnn_interval* out)
{
    size_t lo, hi;
    qsort(values, count, sizeof *values, by_value);
    lo = (size_t)floor((1 - level) / 2 * (double)count);
    hi = (size_t)ceil((1 + level) / 2 * (double)count);
    out->low = values[lo];
    out->high = values[(hi < 1 ? 1 : hi) - 1];
}

/*
 * The bootstrap behind both public functions: with second == NULL the statistic of first[],
 * otherwise its change in percent from first[] to second[] over pairs.
 */
static int
bootstrap(const double* first,
          const double* second,
          size_t n,
          ddnn_statistic statistic,
          double level,
          uint64_t seed,
          ddnn_interval* out)
{
    double *a, *b, *values;
    double whole_a, whole_b;
    size_t r, i, valid = 0;
    int rc = DDNN_OK;
    if (!out || (n && !first) || !level_valid(level)
        || (statistic != DDNN_STATISTIC_MEAN && statistic != DDNN_STATISTIC_P99))
        return DDNN_ERR_INVALID;
    set_missing(out);
    out->samples = n;
    if (n == 0)
        return DDNN_OK;
    a = malloc(n * sizeof *a);
    b = malloc(n * sizeof *b);
    values = malloc(DDNN_BOOTSTRAP_RESAMPLES * sizeof *values);
    if (!a || !b || !values)
    {
        rc = DDNN_ERR_NOMEM;
        goto done;
    }
    memcpy(a, first, n * sizeof *a);
    whole_a = statistic_of(a, n, statistic);
    whole_b = 0;
    if (second)
    {
        memcpy(b, second, n * sizeof *b);
        whole_b = statistic_of(b, n, statistic);
    }
    out->estimate = !second ? whole_a : whole_a != 0 ? (whole_b / whole_a - 1) * 100 : NAN;
    out->df = INFINITY;
    /* A p99 of fewer than 100 samples is their largest: resampling cannot bound it above. */
    if (n < 2 || isnan(out->estimate) || (statistic == DDNN_STATISTIC_P99 && n < 100))
        goto done;
    for (r = 0; r < DDNN_BOOTSTRAP_RESAMPLES; r++)
    {
        double sa, sb;
        for (i = 0; i < n; i++)
        {
            size_t pick = (size_t)(next_random(&seed) % n);
            a[i] = first[pick];
            if (second)
                b[i] = second[pick];
        }
        sa = statistic_of(a, n, statistic);
        if (!second)
            values[valid++] = sa;
        else if (sa != 0)
        {
            sb = statistic_of(b, n, statistic);
            values[valid++] = (sb / sa - 1) * 100;
        }
    }
    if (valid >= 2)
    {
        double mean = 0, squares = 0;
        for (i = 0; i < valid; i++)
            mean += values[i];
        mean /= (double)valid;
        for (i = 0; i < valid; i++)
            squares += (values[i] - mean) * (values[i] - mean);
        out->se = sqrt(squares / (double)(valid - 1));
        percentile_interval(values, valid, level, out);
    }
done:
    free(a);
    free(b);
    free(values);
    return rc;
}

int
ddnn_bootstrap(const double* x,
               size_t n,
               ddnn_statistic statistic,
               double level,
               uint64_t seed,
               ddnn_interval* out)
{
    return bootstrap(x, NULL, n, statistic, level, seed, out);
}

int
ddnn_bootstrap_paired_change(const double* first,
                             const double* second,
                             size_t n,
                             ddnn_statistic statistic,
                             double level,
                             uint64_t seed,
                             ddnn_interval* out)
{
    if (n && !second)
        return DDNN_ERR_INVALID;
    return bootstrap(first, second, n, statistic, level, seed, out);
}

double
ddnn_samples_factor(const ddnn_interval* interval, double half_width)
{
    double now, factor;
    if (!interval || isnan(interval->low) || isnan(interval->high))
        return NAN;
    if (!(half_width > 0))
        return INFINITY;
    now = (interval->high - interval->low) / 2;
    factor = (now / half_width) * (now / half_width);
    return factor < 1 ? 1 : factor;
}
