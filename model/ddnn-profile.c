/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-profile.h"

#include "ddnn-array.h"
#include "ddnn-csv.h"

#include <stdlib.h>
#include <string.h>

/* Layer indices are stored as uint32_t; a bound also keeps a typo from allocating gigabytes. */
#define DDNN_PROFILE_MAX_LAYERS 100000

struct ddnn_profile
{
    ddnn_layer* layers; /* indexed by layer index */
    size_t count;
    uint64_t total_bytes;
    uint64_t compute_ns;
};

void
ddnn_profile_free(ddnn_profile* p)
{
    if (p)
    {
        free(p->layers);
        free(p);
    }
}

/* Rows are collected in file order first; line numbers are kept for later diagnostics. */
typedef struct
{
    ddnn_layer layer;
    long line;
} row;

static int
read_rows(const char* text, size_t len, row** rows_out, size_t* count_out, ddnn_diag* diag)
{
    ddnn_csv* csv = malloc(sizeof *csv);
    row* rows = NULL;
    size_t count = 0, cap = 0;
    int rc;
    if (!csv)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    ddnn_csv_init(csv, text, len, "layer,param_bytes,forward_ns,backward_ns");
    ddnn_csv_read_legacy_header(csv); /* a format of ddnn 0.1 */
    while ((rc = ddnn_csv_next(csv, diag)) == 1)
    {
        row r;
        uint64_t index;
        memset(&r, 0, sizeof r);
        r.line = csv->line;
        if ((rc = ddnn_csv_expect_fields(csv, 4, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 0, "layer", &index, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 1, "param_bytes", &r.layer.param_bytes, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 2, "forward_ns", &r.layer.forward_ns, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 3, "backward_ns", &r.layer.backward_ns, diag)) < 0)
            break;
        if (index >= DDNN_PROFILE_MAX_LAYERS)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               r.line,
                               "layer",
                               "expected an index below %d, found %llu",
                               DDNN_PROFILE_MAX_LAYERS,
                               (unsigned long long)index);
            break;
        }
        if (r.layer.param_bytes == 0)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               r.line,
                               "param_bytes",
                               "expected a positive number of bytes, found 0");
            break;
        }
        r.layer.index = (uint32_t)index;
        if (DDNN_ARRAY_RESERVE(rows, cap, count + 1) != DDNN_OK)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
            break;
        }
        rows[count++] = r;
    }
    free(csv);
    if (rc < 0)
    {
        free(rows);
        return rc;
    }
    *rows_out = rows;
    *count_out = count;
    return DDNN_OK;
}

int
ddnn_profile_parse(ddnn_profile** out, const char* text, size_t len, ddnn_diag* diag)
{
    row* rows = NULL;
    size_t count = 0, i;
    long* line_of = NULL;
    ddnn_profile* p;
    int rc = read_rows(text, len, &rows, &count, diag);
    if (rc < 0)
        return rc;
    if (count == 0)
    {
        free(rows);
        return ddnn_diag_set(diag,
                             DDNN_ERR_EMPTY,
                             0,
                             "",
                             "no layer rows (expected layer,param_bytes,forward_ns,backward_ns)");
    }
    p = calloc(1, sizeof *p);
    line_of = calloc(count, sizeof *line_of);
    if (p)
        p->layers = calloc(count, sizeof *p->layers);
    if (!p || !line_of || !p->layers)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
        goto fail;
    }
    p->count = count;
    for (i = 0; i < count; i++)
    {
        const row* r = &rows[i];
        if (r->layer.index >= count)
        {
            rc = ddnn_diag_set(
                diag,
                DDNN_ERR_MISSING,
                r->line,
                "layer",
                "index %u but the file has %lu layers, so some index below it is missing",
                r->layer.index,
                (unsigned long)count);
            goto fail;
        }
        if (line_of[r->layer.index])
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_DUPLICATE,
                               r->line,
                               "layer",
                               "index %u already given on line %ld",
                               r->layer.index,
                               line_of[r->layer.index]);
            goto fail;
        }
        line_of[r->layer.index] = r->line;
        p->layers[r->layer.index] = r->layer;
        /* Checked before adding, so that no sum wraps. */
        if (r->layer.param_bytes > DDNN_PROFILE_MAX_MODEL_BYTES - p->total_bytes)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               r->line,
                               "param_bytes",
                               "the model's bytes would pass %llu (at most 2^53 in all)",
                               (unsigned long long)DDNN_PROFILE_MAX_MODEL_BYTES);
            goto fail;
        }
        if (r->layer.forward_ns > DDNN_PROFILE_MAX_COMPUTE_NS - p->compute_ns
            || r->layer.backward_ns
                   > DDNN_PROFILE_MAX_COMPUTE_NS - p->compute_ns - r->layer.forward_ns)
        {
            int forward = r->layer.forward_ns > DDNN_PROFILE_MAX_COMPUTE_NS - p->compute_ns;
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               r->line,
                               forward ? "forward_ns" : "backward_ns",
                               "the profile's compute time would pass %llu ns (at most 10^15 in "
                               "all)",
                               (unsigned long long)DDNN_PROFILE_MAX_COMPUTE_NS);
            goto fail;
        }
        p->total_bytes += r->layer.param_bytes;
        p->compute_ns += r->layer.forward_ns + r->layer.backward_ns;
    }
    if (p->compute_ns == 0)
    {
        rc = ddnn_diag_set(
            diag,
            DDNN_ERR_RANGE,
            0,
            "forward_ns",
            "every compute time is 0; at least one must be positive to scale the profile");
        goto fail;
    }
    free(rows);
    free(line_of);
    *out = p;
    return DDNN_OK;
fail:
    free(rows);
    free(line_of);
    ddnn_profile_free(p);
    return rc;
}

int
ddnn_profile_from_layers(ddnn_profile** out,
                         const ddnn_layer* layers,
                         size_t count,
                         ddnn_diag* diag)
{
    ddnn_profile* p;
    size_t i;
    if (count == 0)
        return ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "no layers");
    if (count > DDNN_PROFILE_MAX_LAYERS)
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             "layer",
                             "%lu layers, more than %d",
                             (unsigned long)count,
                             DDNN_PROFILE_MAX_LAYERS);
    p = calloc(1, sizeof *p);
    if (p)
        p->layers = calloc(count, sizeof *p->layers);
    if (!p || !p->layers)
    {
        ddnn_profile_free(p);
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    p->count = count;
    for (i = 0; i < count; i++)
    {
        const ddnn_layer* l = &layers[i];
        int rc = DDNN_OK;
        if (l->param_bytes == 0)
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               0,
                               "param_bytes",
                               "layer %lu: expected a positive number of bytes, found 0",
                               (unsigned long)i);
        else if (l->param_bytes > DDNN_PROFILE_MAX_MODEL_BYTES - p->total_bytes)
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               0,
                               "param_bytes",
                               "the model's bytes would pass %llu (at most 2^53 in all)",
                               (unsigned long long)DDNN_PROFILE_MAX_MODEL_BYTES);
        else if (l->forward_ns > DDNN_PROFILE_MAX_COMPUTE_NS - p->compute_ns
                 || l->backward_ns > DDNN_PROFILE_MAX_COMPUTE_NS - p->compute_ns - l->forward_ns)
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               0,
                               "forward_ns",
                               "the compute time would pass %llu ns (at most 10^15 in all)",
                               (unsigned long long)DDNN_PROFILE_MAX_COMPUTE_NS);
        if (rc < 0)
        {
            ddnn_profile_free(p);
            return rc;
        }
        p->layers[i] = *l;
        p->layers[i].index = (uint32_t)i;
        p->total_bytes += l->param_bytes;
        p->compute_ns += l->forward_ns + l->backward_ns;
    }
    *out = p;
    return DDNN_OK;
}

DDNN_FILE_READER(ddnn_profile_read_file,
                 ddnn_profile**,
                 ddnn_profile_parse,
                 DDNN_CSV_MAX_FILE_BYTES)

size_t
ddnn_profile_layer_count(const ddnn_profile* p)
{
    return p->count;
}

const ddnn_layer*
ddnn_profile_layer(const ddnn_profile* p, size_t index)
{
    return index < p->count ? &p->layers[index] : NULL;
}

uint64_t
ddnn_profile_total_bytes(const ddnn_profile* p)
{
    return p->total_bytes;
}

uint64_t
ddnn_profile_compute_ns(const ddnn_profile* p)
{
    return p->compute_ns;
}

/* 128-bit intermediate: cumulative * target overflows 64 bits for long profiles. */
__extension__ typedef unsigned __int128 ddnn_u128;

/* round(cumulative * target / total) */
static uint64_t
scaled_boundary(uint64_t cumulative, uint64_t target, uint64_t total)
{
    ddnn_u128 num = (ddnn_u128)cumulative * target + total / 2;
    return (uint64_t)(num / total);
}

int
ddnn_profile_scale(const ddnn_profile* p,
                   uint64_t iteration_ns,
                   uint64_t* forward_ns,
                   uint64_t* backward_ns)
{
    uint64_t cumulative = 0, previous = 0;
    size_t i;
    if (!p || !forward_ns || !backward_ns || iteration_ns == 0 || p->compute_ns == 0)
        return DDNN_ERR_INVALID;
    for (i = 0; i < p->count; i++)
    {
        uint64_t boundary;
        cumulative += p->layers[i].forward_ns;
        boundary = scaled_boundary(cumulative, iteration_ns, p->compute_ns);
        forward_ns[i] = boundary - previous;
        previous = boundary;
    }
    for (i = p->count; i-- > 0;)
    {
        uint64_t boundary;
        cumulative += p->layers[i].backward_ns;
        boundary = scaled_boundary(cumulative, iteration_ns, p->compute_ns);
        backward_ns[i] = boundary - previous;
        previous = boundary;
    }
    return DDNN_OK;
}

int
ddnn_profile_scale_bytes(ddnn_profile* p, double factor)
{
    size_t i;
    if (!p || !(factor > 0 && factor <= 1))
        return DDNN_ERR_INVALID;
    p->total_bytes = 0;
    for (i = 0; i < p->count; i++)
    {
        /* bytes < 2^53 (the reader's bound): exact in a double, and the product below it */
        const uint64_t scaled = (uint64_t)((double)p->layers[i].param_bytes * factor + 0.5);
        p->layers[i].param_bytes = scaled > 0 ? scaled : 1;
        p->total_bytes += p->layers[i].param_bytes;
    }
    return DDNN_OK;
}
