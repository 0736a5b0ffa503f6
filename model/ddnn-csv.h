/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal reader for the comma-separated data files of ddnn: '#' starts a
 * comment line, blank lines are skipped, an optional header row is allowed
 * before the first data row, and every number is checked strictly.
 */
#ifndef DDNN_CSV_H
#define DDNN_CSV_H

#include "ddnn-error.h"
#include "ddnn-file.h" /* ddnn_read_file */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_CSV_MAX_FIELDS     16
#define DDNN_CSV_MAX_LINE       1024
/* Data files larger than this are refused rather than read into memory. */
#define DDNN_CSV_MAX_FILE_BYTES (64UL * 1024 * 1024)

    typedef struct
    {
        const char* text; /* not owned */
        size_t len;
        size_t pos;
        long line;     /* line number of the row last returned */
        int seen_data; /* a data row was returned, so no header may follow */
        char buf[DDNN_CSV_MAX_LINE + 1];
        char* fields[DDNN_CSV_MAX_FIELDS];
        int field_count;
    } ddnn_csv;

    void ddnn_csv_init(ddnn_csv* csv, const char* text, size_t len);

    /*
     * Advances to the next data row. Returns 1 when a row is available, 0 at the
     * end of input, or a negative ddnn_error (with diag filled).
     * A header row (first non-comment row whose first field does not start with a
     * digit, sign or dot) is skipped.
     */
    int ddnn_csv_next(ddnn_csv* csv, ddnn_diag* diag);

    /* Requires exactly `count` fields in the current row. */
    int ddnn_csv_expect_fields(const ddnn_csv* csv, int count, ddnn_diag* diag);

    /* Parses field i as an unsigned decimal integer (a leading '-' is a range error). */
    int ddnn_csv_u64(const ddnn_csv* csv, int i, const char* name, uint64_t* out, ddnn_diag* diag);

    /* Parses field i as a finite decimal number. */
    int ddnn_csv_double(const ddnn_csv* csv, int i, const char* name, double* out, ddnn_diag* diag);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_CSV_H */
