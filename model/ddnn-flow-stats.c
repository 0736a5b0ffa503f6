/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-flow-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

ddnn_flow_class
ddnn_flow_class_of(uint64_t bytes)
{
    if (bytes <= DDNN_SMALL_FLOW_MAX_BYTES)
        return DDNN_FLOWS_SMALL;
    if (bytes >= DDNN_LARGE_FLOW_MIN_BYTES)
        return DDNN_FLOWS_LARGE;
    return DDNN_FLOWS_MEDIUM;
}

const char*
ddnn_flow_class_name(ddnn_flow_class c)
{
    static const char* names[] = {"small", "medium", "large", "all"};
    return c < DDNN_FLOW_CLASSES ? names[c] : "?";
}

static int
by_value(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank: the value at rank ceil(p/100 * n), 1-based. */
static double
percentile(const double* sorted, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

int
ddnn_flow_stats(const ddnn_flow_result* flows, size_t count, ddnn_flow_class_stats* stats)
{
    double* fct[DDNN_FLOW_CLASSES];
    size_t i;
    int c, rc = DDNN_OK;
    if (!stats || (count && !flows))
        return DDNN_ERR_INVALID;
    memset(stats, 0, DDNN_FLOW_CLASSES * sizeof *stats);
    for (c = 0; c < DDNN_FLOW_CLASSES; c++)
        fct[c] = malloc((count ? count : 1) * sizeof(double));
    for (c = 0; c < DDNN_FLOW_CLASSES; c++)
        if (!fct[c])
            rc = DDNN_ERR_NOMEM;
    for (i = 0; rc == DDNN_OK && i < count; i++)
    {
        ddnn_flow_class k = ddnn_flow_class_of(flows[i].bytes);
        ddnn_flow_class both[2] = {k, DDNN_FLOWS_ALL};
        int j;
        for (j = 0; j < 2; j++)
        {
            ddnn_flow_class_stats* s = &stats[both[j]];
            s->started++;
            if (flows[i].completed)
            {
                fct[both[j]][s->completed++] = flows[i].fct_s;
                s->mean_s += flows[i].fct_s;
            }
        }
    }
    for (c = 0; rc == DDNN_OK && c < DDNN_FLOW_CLASSES; c++)
    {
        ddnn_flow_class_stats* s = &stats[c];
        if (s->completed == 0)
        {
            s->mean_s = s->p50_s = s->p99_s = s->sd_s = NAN; /* no sample: missing, not 0 */
            continue;
        }
        s->mean_s /= (double)s->completed;
        s->sd_s = NAN;
        if (s->completed >= 2)
        {
            double squares = 0;
            for (i = 0; i < s->completed; i++)
                squares += (fct[c][i] - s->mean_s) * (fct[c][i] - s->mean_s);
            s->sd_s = sqrt(squares / (double)(s->completed - 1));
        }
        qsort(fct[c], s->completed, sizeof(double), by_value);
        s->p50_s = percentile(fct[c], s->completed, 50);
        s->p99_s = percentile(fct[c], s->completed, 99);
    }
    for (c = 0; c < DDNN_FLOW_CLASSES; c++)
        free(fct[c]);
    return rc;
}
