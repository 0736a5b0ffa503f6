/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the sequential precision rule: the steps by hand, and the whole procedure on
 * synthetic AR(1) series of known mean: it stops within the target unless capped, respects
 * its cap, and its final interval covers the mean about 95 % of the time.
 */
#include "ddnn-precision.h"
#include "ddnn-unit.h"

#include <math.h>

static uint64_t test_state = 99;

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
steps_by_hand(void)
{
    /* half-widths 4 and 1 against a target of 2: the first asks for (4/2)^2 x 1.2 = 4.8 */
    ddnn_interval two[2] = {{10, 6, 14, 1, 9, 10, 10}, {5, 4, 6, 1, 9, 10, 10}};
    ddnn_precision_step step;
    double growth;
    CHECK(ddnn_precision_next(two, 2, 2, 100, &step, &growth) == DDNN_OK);
    CHECK(step == DDNN_PRECISION_GROW);
    CHECK_NEAR(growth, 4.8, 1e-12);
    /* the cap allows 3: the last stage takes 3 */
    ddnn_precision_next(two, 2, 2, 3, &step, &growth);
    CHECK(step == DDNN_PRECISION_GROW && growth == 3);
    /* the cap allows less than 1.5: capped */
    ddnn_precision_next(two, 2, 2, 1.4, &step, &growth);
    CHECK(step == DDNN_PRECISION_CAPPED && growth == 1);
    /* within the target: reached, whatever the cap */
    ddnn_precision_next(two, 2, 4, 0, &step, &growth);
    CHECK(step == DDNN_PRECISION_REACHED);
    /* barely outside: at least 1.5 */
    ddnn_precision_next(two, 1, 3.9, 100, &step, &growth);
    CHECK(step == DDNN_PRECISION_GROW && growth == 1.5);
    /* no interval yet: the blind growth */
    two[0].low = NAN;
    ddnn_precision_next(two, 2, 2, 100, &step, &growth);
    CHECK(step == DDNN_PRECISION_GROW && growth == DDNN_PRECISION_BLIND_GROWTH);
    CHECK(ddnn_precision_next(two, 2, 0, 100, &step, &growth) == DDNN_ERR_INVALID);
    CHECK(ddnn_precision_next(two, 0, 1, 100, &step, &growth) == DDNN_ERR_INVALID);
}

/*
 * The procedure on a series that continues where the last stage ended (as a longer run with
 * the same seed): AR(1), phi 0.5, around 10, first stage 40 samples, target half-width 0.1,
 * cap 10,000 samples. The need is about (t(0.975, 9) x 2 / 0.1)^2 ~ 2,000 (the long-run sd of
 * the series is 1 / (1 - phi) = 2).
 */
static void
procedure_stops_within_target_and_covers(void)
{
    enum
    {
        draws = 600,
        cap = 10000
    };
    static double x[cap];
    int covered = 0, reached = 0, d;
    for (d = 0; d < draws; d++)
    {
        size_t n = 40, made = 0, stages = 0;
        double e = normal() / sqrt(0.75);
        ddnn_interval i;
        ddnn_precision_step step = DDNN_PRECISION_GROW;
        double growth;
        for (;;)
        {
            for (; made < n; made++)
            {
                e = 0.5 * e + normal();
                x[made] = 10 + e;
            }
            ddnn_batch_means(x, n, 0.95, &i);
            ddnn_precision_next(&i, 1, 0.1, (double)cap / n, &step, &growth);
            stages++;
            if (step != DDNN_PRECISION_GROW)
                break;
            n = (size_t)ceil(n * growth);
            if (n > cap)
                n = cap;
        }
        CHECK(n <= cap);
        CHECK(stages <= 10);
        if (step == DDNN_PRECISION_REACHED)
        {
            reached++;
            CHECK((i.high - i.low) / 2 <= 0.1);
        }
        covered += i.low <= 10 && 10 <= i.high;
    }
    CHECK(reached > draws * 0.95); /* the cap is 5 times the need: rarely reached */
    CHECK((double)covered / draws > 0.91 && (double)covered / draws < 0.98);
}

/* A target no cap can reach: every procedure ends capped, within its cap. */
static void
procedure_respects_its_cap(void)
{
    static double x[400];
    size_t n = 40, k;
    ddnn_interval i;
    ddnn_precision_step step = DDNN_PRECISION_GROW;
    double growth;
    for (k = 0; k < 400; k++)
        x[k] = 10 + normal();
    while (step == DDNN_PRECISION_GROW)
    {
        ddnn_batch_means(x, n, 0.95, &i);
        ddnn_precision_next(&i, 1, 1e-6, 400.0 / n, &step, &growth);
        if (step == DDNN_PRECISION_GROW)
            n = (size_t)ceil(n * growth) > 400 ? 400 : (size_t)ceil(n * growth);
    }
    CHECK(step == DDNN_PRECISION_CAPPED);
    CHECK_U64(n, 400);
}

int
main(void)
{
    RUN(steps_by_hand);
    RUN(procedure_stops_within_target_and_covers);
    RUN(procedure_respects_its_cap);
    return UNIT_REPORT();
}
