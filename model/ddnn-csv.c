/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ddnn_csv_init(ddnn_csv* csv, const char* text, size_t len, const char* columns)
{
    int i;
    memset(csv, 0, sizeof *csv);
    csv->text = text;
    csv->len = len;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
    {
        csv->pos = 3; /* a UTF-8 byte order mark, as spreadsheets write it */
    }
    csv->columns = columns;
    csv->column_count = columns ? 1 : 0;
    for (i = 0; columns && columns[i]; i++)
    {
        csv->column_count += columns[i] == ',';
    }
    for (i = 0; i < DDNN_CSV_MAX_FIELDS; i++)
    {
        csv->order[i] = i;
    }
}

void
ddnn_csv_read_legacy_header(ddnn_csv* csv)
{
    csv->legacy_header = 1;
}

static char*
trim(char* s)
{
    char* end;
    while (*s && isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* Whether field j of the header names column i of csv->columns. */
static int
names_column(const ddnn_csv* csv, int j, int i)
{
    const char* name = csv->columns;
    size_t n;
    for (; i > 0; i--)
        name += strcspn(name, ",") + 1;
    n = strcspn(name, ",");
    return strlen(csv->fields[j]) == n && strncmp(csv->fields[j], name, n) == 0;
}

/*
 * ddnn 0.1 skipped any header and read the columns by position. A header of other names is
 * still read so when the reader allows it and no name contradicts its position (a name of
 * another column); diag keeps a notice (code DDNN_OK) that the host prints as a warning.
 */
static int
read_by_position(ddnn_csv* csv, ddnn_diag* diag)
{
    int i, j;
    if (!csv->legacy_header)
        return 0;
    for (j = 0; j < csv->field_count; j++)
        for (i = 0; i < csv->column_count; i++)
            if (i != j && names_column(csv, j, i))
                return 0;
    for (i = 0; i < csv->column_count; i++)
        csv->order[i] = i;
    ddnn_diag_set(diag,
                  DDNN_OK,
                  csv->line,
                  "",
                  "header read by position as ddnn 0.1 did (deprecated until 0.3): name the "
                  "columns '%s'",
                  csv->columns);
    return 1;
}

/*
 * The header row in csv->fields against csv->columns: the same names, each once, in any
 * order; sets csv->order.
 */
static int
read_header(ddnn_csv* csv, ddnn_diag* diag)
{
    int i, j;
    const char* name = csv->columns;
    if (csv->field_count != csv->column_count)
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             csv->line,
                             "",
                             "expected the header '%s' (its names in any order), found %d "
                             "fields",
                             csv->columns,
                             csv->field_count);
    for (i = 0; i < csv->column_count; i++)
    {
        size_t n = strcspn(name, ",");
        csv->order[i] = -1;
        for (j = 0; j < csv->field_count; j++)
        {
            if (strlen(csv->fields[j]) == n && strncmp(csv->fields[j], name, n) == 0)
            {
                csv->order[i] = j;
            }
        }
        if (csv->order[i] < 0 && read_by_position(csv, diag))
            return DDNN_OK;
        if (csv->order[i] < 0)
            return ddnn_diag_set(diag,
                                 DDNN_ERR_SYNTAX,
                                 csv->line,
                                 "",
                                 "expected the header '%s' (its names in any order), found no "
                                 "column '%.*s'",
                                 csv->columns,
                                 (int)n,
                                 name);
        name += n + (name[n] == ',');
    }
    return DDNN_OK; /* as many names, each found: each once */
}

/* Hands the current row's fields out in the order of csv->columns. */
static void
reorder(ddnn_csv* csv)
{
    char* given[DDNN_CSV_MAX_FIELDS];
    int i;
    if (csv->field_count != csv->column_count)
        return; /* ddnn_csv_expect_fields refuses it */
    memcpy(given, csv->fields, sizeof given);
    for (i = 0; i < csv->column_count; i++)
        csv->fields[i] = given[csv->order[i]];
}

/* Keeps the header row's names (in csv->fields) past the next line. */
static void
keep_header(ddnn_csv* csv)
{
    int i;
    memcpy(csv->header_buf, csv->buf, sizeof csv->buf);
    for (i = 0; i < csv->field_count; i++)
        csv->header[i] = csv->header_buf + (csv->fields[i] - csv->buf);
    csv->header_count = csv->field_count;
}

static int
looks_numeric(const char* s)
{
    return isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+' || s[0] == '.';
}

/* Copies the next physical line into csv->buf; returns 0 at end of input. */
static int
next_line(ddnn_csv* csv, ddnn_diag* diag)
{
    size_t start = csv->pos, n;
    if (csv->pos >= csv->len)
        return 0;
    while (csv->pos < csv->len && csv->text[csv->pos] != '\n')
        csv->pos++;
    n = csv->pos - start;
    if (csv->pos < csv->len)
        csv->pos++; /* skip the newline */
    csv->line++;
    if (n > DDNN_CSV_MAX_LINE)
        return ddnn_diag_set(diag,
                             DDNN_ERR_TOO_LARGE,
                             csv->line,
                             "",
                             "line longer than %d characters",
                             DDNN_CSV_MAX_LINE);
    memcpy(csv->buf, csv->text + start, n);
    csv->buf[n] = '\0';
    if (memchr(csv->buf, '\0', n))
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, "", "binary data (NUL byte) in a text file");
    return 1;
}

int
ddnn_csv_next(ddnn_csv* csv, ddnn_diag* diag)
{
    int rc, i;
    while ((rc = next_line(csv, diag)) == 1)
    {
        char* s = trim(csv->buf);
        char* p;
        if (*s == '\0' || *s == '#')
            continue;
        csv->field_count = 0;
        for (p = s;;)
        {
            char* comma = strchr(p, ',');
            if (csv->field_count == DDNN_CSV_MAX_FIELDS)
                return ddnn_diag_set(diag,
                                     DDNN_ERR_SYNTAX,
                                     csv->line,
                                     "",
                                     "more than %d fields",
                                     DDNN_CSV_MAX_FIELDS);
            if (comma)
                *comma = '\0';
            csv->fields[csv->field_count++] = trim(p);
            if (!comma)
                break;
            p = comma + 1;
        }
        for (i = 0; i < csv->field_count; i++)
        {
            if (csv->fields[i][0] == '"' || csv->fields[i][0] == '\'')
                return ddnn_diag_set(diag,
                                     DDNN_ERR_SYNTAX,
                                     csv->line,
                                     "",
                                     "expected plain comma-separated fields, found the quoted "
                                     "field %.40s",
                                     csv->fields[i]);
        }
        if (!csv->seen_data && !looks_numeric(csv->fields[0]))
        {
            csv->seen_data = 1; /* only one header row, and only before data */
            csv->header_seen = 1;
            if (csv->columns && (rc = read_header(csv, diag)) < 0)
                return rc;
            if (!csv->columns)
                keep_header(csv);
            continue;
        }
        csv->seen_data = 1;
        reorder(csv);
        return 1;
    }
    return rc;
}

int
ddnn_csv_expect_fields(const ddnn_csv* csv, int count, ddnn_diag* diag)
{
    if (csv->field_count != count)
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             csv->line,
                             "",
                             "expected %d comma-separated fields, found %d",
                             count,
                             csv->field_count);
    return DDNN_OK;
}

int
ddnn_csv_u64(const ddnn_csv* csv, int i, const char* name, uint64_t* out, ddnn_diag* diag)
{
    const char* s = csv->fields[i];
    char* end;
    unsigned long long v;
    if (s[0] == '-')
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             csv->line,
                             name,
                             "expected a non-negative integer, found '%s'",
                             s);
    if (!isdigit((unsigned char)s[0]))
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected an integer, found '%s'", s);
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end != '\0')
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected an integer, found '%s'", s);
    if (errno == ERANGE)
        return ddnn_diag_set(diag, DDNN_ERR_RANGE, csv->line, name, "integer '%s' too large", s);
    *out = (uint64_t)v;
    return DDNN_OK;
}

int
ddnn_csv_double(const ddnn_csv* csv, int i, const char* name, double* out, ddnn_diag* diag)
{
    const char* s = csv->fields[i];
    char* end;
    double v;
    if (!looks_numeric(s))
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected a number, found '%s'", s);
    errno = 0;
    v = strtod(s, &end);
    if (*end != '\0' || end == s)
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected a number, found '%s'", s);
    if (errno == ERANGE || !isfinite(v))
        return ddnn_diag_set(diag, DDNN_ERR_RANGE, csv->line, name, "number '%s' out of range", s);
    *out = v;
    return DDNN_OK;
}

int
ddnn_csv_field_count(const ddnn_csv* csv)
{
    return csv->field_count;
}

const char*
ddnn_csv_field(const ddnn_csv* csv, int i)
{
    return i >= 0 && i < csv->field_count ? csv->fields[i] : NULL;
}

int
ddnn_csv_header_count(const ddnn_csv* csv)
{
    return csv->header_count;
}

const char*
ddnn_csv_header_name(const ddnn_csv* csv, int i)
{
    return i >= 0 && i < csv->header_count ? csv->header[i] : NULL;
}
