/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Empirical flow-size distribution: CSV rows "bytes,cumulative_fraction",
 * sizes and fractions non-decreasing, first fraction 0 and last 1.
 * Between points the distribution is linear (uniform within a segment).
 */
#ifndef DDNN_CDF_H
#define DDNN_CDF_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Largest flow size a CDF may name: 1 TB, 800 simulated seconds at 10 Gbit/s. Bounds every
 * sample well inside uint64_t (and exact in a double), and the bytes of 10^7 flows too.
 */
#define DDNN_CDF_MAX_FLOW_BYTES 1e12

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct ddnn_cdf ddnn_cdf; /* opaque */

    int ddnn_cdf_parse(ddnn_cdf** out, const char* text, size_t len, ddnn_diag* diag);
    int ddnn_cdf_read_file(ddnn_cdf** out, const char* path, ddnn_diag* diag);
    void ddnn_cdf_free(ddnn_cdf* cdf);

    size_t ddnn_cdf_point_count(const ddnn_cdf* cdf);
    /* Mean size in bytes with linear interpolation between points. */
    double ddnn_cdf_mean(const ddnn_cdf* cdf);
    /* Inverse CDF: the size at cumulative fraction u in [0, 1], rounded to whole bytes, at least 1.
     */
    uint64_t ddnn_cdf_sample(const ddnn_cdf* cdf, double u);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_CDF_H */
