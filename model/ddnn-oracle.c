/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-oracle.h"

#include "ddnn-csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Field `name` of the current row as a finite number; an empty field is *empty = 1. */
static int
number_of(
    const ddnn_csv* csv, int column, const char* name, double* out, int* empty, ddnn_diag* diag)
{
    const char* text = ddnn_csv_field(csv, column);
    char* end = NULL;
    *empty = text == NULL || text[0] == '\0';
    if (*empty)
    {
        return DDNN_OK;
    }
    *out = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(*out) || *out < 0)
    {
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected a time in s, got '%.40s'", text);
    }
    return DDNN_OK;
}

int
ddnn_oracle_parse(const char* text, size_t len, uint32_t buffers, uint8_t* raise, ddnn_diag* diag)
{
    static const char* const names[] = {"buffer", "end_s", "deadline_s"};
    int column[3] = {-1, -1, -1};
    uint32_t *late, *finished, b;
    uint64_t rows = 0, named = 0; /* named: 1 + the highest buffer a row names */
    ddnn_csv* csv;
    int rc, i;
    if (!text || !raise || buffers == 0)
    {
        return DDNN_ERR_INVALID;
    }
    csv = malloc(sizeof *csv);
    late = calloc(buffers, sizeof *late);
    finished = calloc(buffers, sizeof *finished);
    if (!csv || !late || !finished)
    {
        free(csv);
        free(late);
        free(finished);
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    ddnn_csv_init(csv, text, len, NULL);
    while ((rc = ddnn_csv_next(csv, diag)) == 1)
    {
        uint64_t buffer;
        double end = 0, deadline = 0;
        int noEnd = 0, noDeadline = 0;
        char* stop = NULL;
        const char* field;
        if (rows++ == 0)
        {
            for (i = 0; i < ddnn_csv_header_count(csv); i++)
            {
                int n;
                for (n = 0; n < 3; n++)
                {
                    if (strcmp(ddnn_csv_header_name(csv, i), names[n]) == 0)
                    {
                        column[n] = i;
                    }
                }
            }
            for (i = 0; i < 3 && rc == 1; i++)
            {
                if (column[i] < 0)
                {
                    rc = ddnn_diag_set(diag,
                                       DDNN_ERR_MISSING,
                                       csv->line,
                                       names[i],
                                       "no column '%s' (the buffers.csv of a run with a "
                                       "priority policy has buffer, end_s and deadline_s)",
                                       names[i]);
                }
            }
            if (rc != 1)
            {
                break;
            }
        }
        field = ddnn_csv_field(csv, column[0]);
        buffer = field ? strtoull(field, &stop, 10) : 0;
        if (!field || stop == field || *stop != '\0' || field[0] == '-')
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_SYNTAX,
                               csv->line,
                               "buffer",
                               "expected a buffer index, got '%.40s'",
                               field ? field : "");
            break;
        }
        if (buffer >= buffers)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_RANGE,
                               csv->line,
                               "buffer",
                               "buffer %llu, but the model has buffers 0..%u",
                               (unsigned long long)buffer,
                               buffers - 1);
            break;
        }
        named = buffer + 1 > named ? buffer + 1 : named;
        if ((rc = number_of(csv, column[1], "end_s", &end, &noEnd, diag)) < 0
            || (rc = number_of(csv, column[2], "deadline_s", &deadline, &noDeadline, diag)) < 0)
        {
            break;
        }
        if (!noEnd && !noDeadline) /* a collective still running has no end */
        {
            finished[buffer]++;
            late[buffer] += end > deadline;
        }
    }
    if (rc == 0 && named > 0 && named < buffers)
    {
        /* A reference run of another model (or fusion size): its buffers are not these. */
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_MISSING,
                           0,
                           "buffer",
                           "the reference names buffers 0..%llu, but the model has buffers "
                           "0..%u: a run of another model or fusion size",
                           (unsigned long long)named - 1,
                           buffers - 1);
    }
    if (rc == 0)
    {
        uint32_t any = 0;
        for (b = 0; b < buffers; b++)
        {
            raise[b] = finished[b] > 0 && 2 * late[b] >= finished[b];
            any += finished[b] > 0;
        }
        rc = any ? DDNN_OK
                 : ddnn_diag_set(diag,
                                 DDNN_ERR_EMPTY,
                                 0,
                                 "",
                                 "no finished collective with a deadline to learn from");
    }
    free(csv);
    free(late);
    free(finished);
    return rc;
}
