/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Background flow generator (web search tenant): Poisson arrivals at
 * servers x rate_per_server flows per second in all, sizes drawn from an
 * empirical CDF, source and destination drawn uniformly among distinct
 * servers. Randomness comes from the host (uniform numbers in [0, 1)), so a
 * seeded source fixes the schedule.
 */
#ifndef DDNN_FLOWGEN_H
#define DDNN_FLOWGEN_H

#include "ddnn-cdf.h"
#include "ddnn-error.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct
    {
        uint64_t id;    /* 0, 1, 2, ... in start order */
        uint32_t src;   /* server index */
        uint32_t dst;   /* server index, != src */
        uint64_t bytes; /* >= 1 */
        uint64_t start_ns;
    } ddnn_flow;

    typedef struct
    {
        uint32_t servers;       /* >= 2 */
        double rate_per_server; /* flows per second started by each server on average, > 0 */
        uint64_t start_ns;      /* first possible arrival (arrivals are counted from here) */
        uint64_t stop_ns;       /* no flow starts at or after it */
    } ddnn_flowgen_config;

    /* Returns a uniform number in [0, 1). */
    typedef double (*ddnn_uniform_fn)(void* ctx);

    typedef struct ddnn_flowgen ddnn_flowgen; /* opaque */

    /* The CDF is borrowed and must outlive the generator. */
    int ddnn_flowgen_new(ddnn_flowgen** out,
                         const ddnn_flowgen_config* cfg,
                         const ddnn_cdf* cdf,
                         ddnn_uniform_fn uniform,
                         void* ctx);
    void ddnn_flowgen_free(ddnn_flowgen* g);

    /* Draws the next flow: returns 1 with *flow filled, or 0 once arrivals pass stop_ns. */
    int ddnn_flowgen_next(ddnn_flowgen* g, ddnn_flow* flow);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_FLOWGEN_H */
