/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-schedule.h"

#include "ddnn-array.h"
#include "ddnn-cdf.h"
#include "ddnn-csv.h"

#include <stdlib.h>
#include <string.h>

static int
by_start_then_id(const void* a, const void* b)
{
    const ddnn_flow *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_id(const void* a, const void* b)
{
    const ddnn_flow *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

void
ddnn_schedule_free(ddnn_schedule* s)
{
    if (s)
    {
        free(s->flows);
        s->flows = NULL;
        s->count = 0;
    }
}

int
ddnn_schedule_parse(
    ddnn_schedule* out, const char* text, size_t len, uint32_t servers, ddnn_diag* diag)
{
    ddnn_csv* csv = malloc(sizeof *csv);
    ddnn_flow* flows = NULL;
    size_t count = 0, cap = 0, i;
    int rc;
    if (!csv)
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    ddnn_csv_init(csv, text, len, "flow_id,from,to,size_bytes,start_ns");
    ddnn_csv_read_legacy_header(csv); /* a format of ddnn 0.1 */
    while ((rc = ddnn_csv_next(csv, diag)) == 1)
    {
        ddnn_flow f;
        uint64_t src, dst;
        if ((rc = ddnn_csv_expect_fields(csv, 5, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 0, "flow_id", &f.id, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 1, "from", &src, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 2, "to", &dst, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 3, "size_bytes", &f.bytes, diag)) < 0
            || (rc = ddnn_csv_u64(csv, 4, "start_ns", &f.start_ns, diag)) < 0)
            break;
        if (src >= servers || dst >= servers)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               csv->line,
                               src >= servers ? "from" : "to",
                               "server %llu does not exist (the network has servers 0..%u)",
                               (unsigned long long)(src >= servers ? src : dst),
                               servers - 1);
            break;
        }
        if (src == dst)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               csv->line,
                               "to",
                               "a flow from server %llu to itself",
                               (unsigned long long)src);
            break;
        }
        if (f.bytes == 0 || f.bytes > (uint64_t)DDNN_CDF_MAX_FLOW_BYTES)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               csv->line,
                               "size_bytes",
                               "expected a size in [1, %.0f] bytes, found %llu",
                               DDNN_CDF_MAX_FLOW_BYTES,
                               (unsigned long long)f.bytes);
            break;
        }
        if (f.start_ns > (uint64_t)INT64_MAX)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               csv->line,
                               "start_ns",
                               "expected a time in [0, %lld] ns (what ns-3 can hold), found %llu",
                               (long long)INT64_MAX,
                               (unsigned long long)f.start_ns);
            break;
        }
        f.src = (uint32_t)src;
        f.dst = (uint32_t)dst;
        if (DDNN_ARRAY_RESERVE(flows, cap, count + 1) != DDNN_OK)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, csv->line, "", "out of memory");
            break;
        }
        flows[count++] = f;
    }
    free(csv);
    if (rc < 0)
    {
        free(flows);
        return rc;
    }
    if (count == 0)
    {
        free(flows);
        return ddnn_diag_set(diag,
                             DDNN_ERR_EMPTY,
                             0,
                             "",
                             "no flows (expected flow_id,from,to,size_bytes,start_ns rows)");
    }
    qsort(flows, count, sizeof *flows, by_id);
    for (i = 1; i < count; i++)
    {
        if (flows[i].id == flows[i - 1].id)
        {
            unsigned long long id = (unsigned long long)flows[i].id;
            free(flows);
            return ddnn_diag_set(
                diag, DDNN_ERR_DUPLICATE, 0, "flow_id", "flow id %llu appears twice", id);
        }
    }
    qsort(flows, count, sizeof *flows, by_start_then_id);
    out->flows = flows;
    out->count = count;
    return DDNN_OK;
}

int
ddnn_schedule_read_file(ddnn_schedule* out, const char* path, uint32_t servers, ddnn_diag* diag)
{
    char* text;
    size_t len;
    int rc = ddnn_read_file(path, DDNN_CSV_MAX_FILE_BYTES, &text, &len, diag);
    if (rc < 0)
        return rc;
    rc = ddnn_schedule_parse(out, text, len, servers, diag);
    free(text);
    return rc;
}
