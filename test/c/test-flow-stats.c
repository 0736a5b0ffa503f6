/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the FCT statistics by size class. */
#include "ddnn-flow-stats.h"
#include "ddnn-unit.h"

#include <math.h>

static void
classes_have_the_stated_bounds(void)
{
    CHECK(ddnn_flow_class_of(100000) == DDNN_FLOWS_SMALL);
    CHECK(ddnn_flow_class_of(100001) == DDNN_FLOWS_MEDIUM);
    CHECK(ddnn_flow_class_of(9999999) == DDNN_FLOWS_MEDIUM);
    CHECK(ddnn_flow_class_of(10000000) == DDNN_FLOWS_LARGE);
    CHECK(strcmp(ddnn_flow_class_name(DDNN_FLOWS_ALL), "all") == 0);
}

/* 100 small flows with FCT 1..100 ms: mean 50.5, nearest-rank p50 = 50, p99 = 99. */
static void
percentiles_use_nearest_rank(void)
{
    ddnn_flow_result flows[103];
    ddnn_flow_class_stats s[DDNN_FLOW_CLASSES];
    int i;
    for (i = 0; i < 100; i++)
    {
        flows[i].bytes = 1000;
        flows[i].completed = 1;
        flows[i].fct_s = (100 - i) * 1e-3; /* unsorted on purpose */
    }
    flows[100] = (ddnn_flow_result){20000000, 0, 0};  /* large, still running */
    flows[101] = (ddnn_flow_result){5000000, 1, 2.0}; /* medium */
    flows[102] = (ddnn_flow_result){50, 0, 0};        /* small, still running */
    CHECK(ddnn_flow_stats(flows, 103, s) == DDNN_OK);
    CHECK_U64(s[DDNN_FLOWS_SMALL].started, 101);
    CHECK_U64(s[DDNN_FLOWS_SMALL].completed, 100);
    CHECK_NEAR(s[DDNN_FLOWS_SMALL].mean_s, 0.0505, 1e-12);
    CHECK_NEAR(s[DDNN_FLOWS_SMALL].p50_s, 0.050, 1e-12);
    CHECK_NEAR(s[DDNN_FLOWS_SMALL].p99_s, 0.099, 1e-12);
    CHECK_U64(s[DDNN_FLOWS_LARGE].started, 1); /* unfinished flows are counted, never dropped */
    CHECK_U64(s[DDNN_FLOWS_LARGE].completed, 0);
    CHECK(isnan(s[DDNN_FLOWS_LARGE].mean_s)); /* no sample: missing, never 0 */
    CHECK(isnan(s[DDNN_FLOWS_LARGE].p99_s));
    CHECK_U64(s[DDNN_FLOWS_MEDIUM].completed, 1);
    CHECK_NEAR(s[DDNN_FLOWS_MEDIUM].p99_s, 2.0, 0);
    /* the sample standard deviation of 1..n ms is sqrt(n (n + 1) / 12) ms; one flow has none */
    CHECK_NEAR(s[DDNN_FLOWS_SMALL].sd_s, sqrt(100.0 * 101 / 12) * 1e-3, 1e-12);
    CHECK(isnan(s[DDNN_FLOWS_MEDIUM].sd_s));
    CHECK(isnan(s[DDNN_FLOWS_LARGE].sd_s));
    CHECK_U64(s[DDNN_FLOWS_ALL].started, 103);
    CHECK_U64(s[DDNN_FLOWS_ALL].completed, 101);
}

static void
empty_input(void)
{
    ddnn_flow_class_stats s[DDNN_FLOW_CLASSES];
    CHECK(ddnn_flow_stats(NULL, 0, s) == DDNN_OK);
    CHECK_U64(s[DDNN_FLOWS_ALL].started, 0);
}

int
main(void)
{
    RUN(classes_have_the_stated_bounds);
    RUN(percentiles_use_nearest_rank);
    RUN(empty_input);
    return UNIT_REPORT();
}
