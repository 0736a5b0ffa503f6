/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flow schedule reader: CSV rows "flow_id,from,to,size_bytes,start_ns" (the
 * networkload format), so schedules made elsewhere can be replayed. Rows may
 * come in any order: they are sorted by start time (then by id). Ids must be
 * unique, servers below the given count and distinct, sizes at least 1.
 */
#ifndef DDNN_SCHEDULE_H
#define DDNN_SCHEDULE_H

#include "ddnn-error.h"
#include "ddnn-flowgen.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct
    {
        ddnn_flow* flows; /* sorted by start_ns, then id */
        size_t count;
    } ddnn_schedule;

    int ddnn_schedule_parse(
        ddnn_schedule* out, const char* text, size_t len, uint32_t servers, ddnn_diag* diag);
    int ddnn_schedule_read_file(ddnn_schedule* out,
                                const char* path,
                                uint32_t servers,
                                ddnn_diag* diag);
    void ddnn_schedule_free(ddnn_schedule* s);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_SCHEDULE_H */
