/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flow completion time statistics by size class: small (at most 100 KB),
 * large (at least 10 MB), medium (between), and all. Unfinished flows count
 * as started and not completed; FCT statistics use completed flows only.
 * Percentiles use the nearest-rank method: the smallest FCT with at least p %
 * of the completed flows at or below it. The spread is the sample standard
 * deviation of the completed flows' FCTs (n - 1 in the denominator).
 */
#ifndef DDNN_FLOW_STATS_H
#define DDNN_FLOW_STATS_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_SMALL_FLOW_MAX_BYTES 100000ULL
#define DDNN_LARGE_FLOW_MIN_BYTES 10000000ULL

    typedef enum
    {
        DDNN_FLOWS_SMALL,
        DDNN_FLOWS_MEDIUM,
        DDNN_FLOWS_LARGE,
        DDNN_FLOWS_ALL,
        DDNN_FLOW_CLASSES
    } ddnn_flow_class;

    typedef struct
    {
        uint64_t bytes;
        int completed;
        double fct_s; /* meaningful when completed */
    } ddnn_flow_result;

    typedef struct
    {
        uint64_t started;
        uint64_t completed;
        double mean_s, p50_s, p99_s; /* NAN when nothing completed: missing, not 0 */
        double sd_s;                 /* NAN below two completed flows */
    } ddnn_flow_class_stats;

    ddnn_flow_class ddnn_flow_class_of(uint64_t bytes);
    const char* ddnn_flow_class_name(ddnn_flow_class c);

    /* Fills stats[DDNN_FLOW_CLASSES]. */
    int ddnn_flow_stats(const ddnn_flow_result* flows, size_t count, ddnn_flow_class_stats* stats);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_FLOW_STATS_H */
