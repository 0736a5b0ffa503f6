/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-cdf.h"

#include "ddnn-array.h"
#include "ddnn-csv.h"

#include <math.h>
#include <stdlib.h>

/* Fractions within this distance of 0 or 1 count as 0 or 1 (files carry rounded decimals). */
#define DDNN_CDF_EPSILON 1e-9

typedef struct
{
    double bytes;
    double fraction;
} point;

struct ddnn_cdf
{
    point* points;
    size_t count;
};

void
ddnn_cdf_free(ddnn_cdf* cdf)
{
    if (cdf)
    {
        free(cdf->points);
        free(cdf);
    }
}

static int
add_point(ddnn_cdf* cdf, size_t* cap, point pt)
{
    int rc = DDNN_ARRAY_RESERVE(cdf->points, *cap, cdf->count + 1);
    if (rc != DDNN_OK)
        return rc;
    cdf->points[cdf->count++] = pt;
    return DDNN_OK;
}

static int
check_point(const ddnn_cdf* cdf, point pt, long line, ddnn_diag* diag)
{
    if (pt.bytes < 0 || pt.bytes > DDNN_CDF_MAX_FLOW_BYTES)
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             line,
                             "bytes",
                             "expected a size in [0, %.0f], found %g",
                             DDNN_CDF_MAX_FLOW_BYTES,
                             pt.bytes);
    if (pt.fraction < 0 || pt.fraction > 1 + DDNN_CDF_EPSILON)
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             line,
                             "cumulative_fraction",
                             "expected a fraction in [0, 1], found %g",
                             pt.fraction);
    if (cdf->count == 0 && pt.fraction > DDNN_CDF_EPSILON)
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             line,
                             "cumulative_fraction",
                             "the first point must have fraction 0, found %g",
                             pt.fraction);
    if (cdf->count > 0)
    {
        const point* prev = &cdf->points[cdf->count - 1];
        if (pt.bytes < prev->bytes)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_ORDER,
                                 line,
                                 "bytes",
                                 "sizes must not decrease (%g after %g)",
                                 pt.bytes,
                                 prev->bytes);
        if (pt.fraction < prev->fraction)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_ORDER,
                                 line,
                                 "cumulative_fraction",
                                 "the CDF decreases (%g after %g)",
                                 pt.fraction,
                                 prev->fraction);
    }
    return DDNN_OK;
}

int
ddnn_cdf_parse(ddnn_cdf** out, const char* text, size_t len, ddnn_diag* diag)
{
    ddnn_csv* csv = malloc(sizeof *csv);
    ddnn_cdf* cdf = calloc(1, sizeof *cdf);
    size_t cap = 0;
    long last_line = 0;
    int rc;
    if (!csv || !cdf)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
        goto done;
    }
    ddnn_csv_init(csv, text, len, "bytes,cumulative_fraction");
    ddnn_csv_read_legacy_header(csv); /* a format of ddnn 0.1 */
    while ((rc = ddnn_csv_next(csv, diag)) == 1)
    {
        point pt;
        if ((rc = ddnn_csv_expect_fields(csv, 2, diag)) < 0
            || (rc = ddnn_csv_double(csv, 0, "bytes", &pt.bytes, diag)) < 0
            || (rc = ddnn_csv_double(csv, 1, "cumulative_fraction", &pt.fraction, diag)) < 0
            || (rc = check_point(cdf, pt, csv->line, diag)) < 0)
            goto done;
        if ((rc = add_point(cdf, &cap, pt)) < 0)
        {
            ddnn_diag_set(diag, rc, csv->line, "", "out of memory");
            goto done;
        }
        last_line = csv->line;
    }
    if (rc < 0)
        goto done;
    if (cdf->count < 2)
    {
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_EMPTY,
                           last_line,
                           "",
                           "expected at least two points (bytes,cumulative_fraction), found %lu",
                           (unsigned long)cdf->count);
        goto done;
    }
    if (fabs(cdf->points[cdf->count - 1].fraction - 1.0) > DDNN_CDF_EPSILON)
    {
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_RANGE,
                           last_line,
                           "cumulative_fraction",
                           "the last point must have fraction 1, found %g",
                           cdf->points[cdf->count - 1].fraction);
        goto done;
    }
    if (cdf->points[cdf->count - 1].bytes <= 0)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_RANGE, last_line, "bytes", "every flow size is 0");
        goto done;
    }
    cdf->points[cdf->count - 1].fraction = 1.0;
    *out = cdf;
    cdf = NULL;
    rc = DDNN_OK;
done:
    free(csv);
    ddnn_cdf_free(cdf);
    return rc;
}

DDNN_FILE_READER(ddnn_cdf_read_file, ddnn_cdf**, ddnn_cdf_parse, DDNN_CSV_MAX_FILE_BYTES)

size_t
ddnn_cdf_point_count(const ddnn_cdf* cdf)
{
    return cdf->count;
}

double
ddnn_cdf_mean(const ddnn_cdf* cdf)
{
    double mean = 0;
    size_t i;
    /* Each segment is uniform, so it contributes its midpoint times its probability. */
    for (i = 1; i < cdf->count; i++)
    {
        const point *a = &cdf->points[i - 1], *b = &cdf->points[i];
        mean += 0.5 * (a->bytes + b->bytes) * (b->fraction - a->fraction);
    }
    return mean;
}

uint64_t
ddnn_cdf_sample(const ddnn_cdf* cdf, double u)
{
    size_t lo = 1, hi = cdf->count - 1;
    const point *a, *b;
    double bytes;
    if (u <= 0)
        u = 0;
    if (u >= 1)
        u = 1;
    /* first point whose fraction >= u (binary search; the first point has fraction 0) */
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        if (cdf->points[mid].fraction < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    a = &cdf->points[lo - 1];
    b = &cdf->points[lo];
    bytes = b->fraction > a->fraction
                ? a->bytes + (b->bytes - a->bytes) * (u - a->fraction) / (b->fraction - a->fraction)
                : b->bytes;
    bytes = floor(bytes + 0.5);
    return bytes < 1 ? 1 : (uint64_t)bytes;
}
