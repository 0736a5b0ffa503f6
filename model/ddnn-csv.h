/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal reader for the comma-separated data files of ddnn: '#' starts a
 * comment line, blank lines are skipped, an optional header row is allowed
 * before the first data row, and every number is checked strictly. A header
 * names the columns, in any order: rows are read by those names. A UTF-8 byte
 * order mark is skipped; quoted fields are refused (no field needs them).
 *
 * Given no columns, the reader takes any table with a header row: its names are then
 * ddnn_csv_header_name's, and each row's fields are text (ddnn_csv_field), as a run's own
 * outputs are read back (summary.csv's values, NA for no sample).
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
        const char* columns; /* the expected header, "a,b,c"; NULL: not checked */
        int column_count;
        int header_seen;
        int order[DDNN_CSV_MAX_FIELDS];         /* column i is field order[i] of each row */
        char header_buf[DDNN_CSV_MAX_LINE + 1]; /* no columns given: the header's names */
        char* header[DDNN_CSV_MAX_FIELDS];
        int header_count;
        int legacy_header; /* ddnn_csv_read_legacy_header was called */
    } ddnn_csv;

    /*
     * Reads `text`; `columns` ("a,b,c", or NULL) names the columns in the order the reader
     * takes them: a header must name each once (in any order), and each row's fields are
     * then handed out in the order of `columns`.
     */
    void ddnn_csv_init(ddnn_csv* csv, const char* text, size_t len, const char* columns);

    /*
     * For the formats ddnn 0.1 read (profiles, CDFs, schedules): a header whose names are not
     * the columns' is read by position, as 0.1 read every header, unless one of its names is
     * another column's. ddnn_csv_next then succeeds with a notice in diag (code DDNN_OK, a
     * message) for the host to print as a warning. Deprecated: 0.3 reads names only.
     */
    void ddnn_csv_read_legacy_header(ddnn_csv* csv);

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

    /* The current row's number of fields, and field i as text (NULL past the last). */
    int ddnn_csv_field_count(const ddnn_csv* csv);
    const char* ddnn_csv_field(const ddnn_csv* csv, int i);

    /*
     * A reader given no columns: the number of names in the header row read so far (0 before
     * it, or for a table without one), and name i (NULL past the last).
     */
    int ddnn_csv_header_count(const ddnn_csv* csv);
    const char* ddnn_csv_header_name(const ddnn_csv* csv, int i);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_CSV_H */
