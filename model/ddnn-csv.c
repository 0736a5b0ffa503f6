/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ddnn_csv_init(ddnn_csv* csv, const char* text, size_t len)
{
    memset(csv, 0, sizeof *csv);
    csv->text = text;
    csv->len = len;
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
    int rc;
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
        if (!csv->seen_data && !looks_numeric(csv->fields[0]))
        {
            csv->seen_data = 1; /* only one header row, and only before data */
            continue;
        }
        csv->seen_data = 1;
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
