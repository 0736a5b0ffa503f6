/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-calibration.h"

#include "ns3/ddnn-array.h"
#include "ns3/ddnn-csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Field i as a decimal number in (0, 1e9]: every number of the table is a positive measure. */
static int
positive(const ddnn_csv* csv, int i, const char* name, double* out, ddnn_diag* diag)
{
    const char* s = csv->fields[i];
    char* end = NULL;
    double v = 0;
    size_t k;
    int decimal = s[0] != '\0';
    for (k = 0; s[k]; k++)
    {
        decimal = decimal && (isdigit((unsigned char)s[k]) || strchr("+-.eE", s[k]));
    }
    if (decimal)
    {
        errno = 0;
        v = strtod(s, &end);
    }
    if (!decimal || *end != '\0' || errno != 0 || !isfinite(v) || !(v > 0) || v > 1e9)
    {
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, csv->line, name, "expected a number above 0, got '%.60s'", s);
    }
    *out = v;
    return DDNN_OK;
}

static int
read_row(const ddnn_csv* csv, ddnn_calibration_row* r, ddnn_diag* diag)
{
    double workers = 0;
    int rc;
    memset(r, 0, sizeof *r);
    r->line = csv->line;
    if ((rc = ddnn_csv_expect_fields(csv, 5, diag)) < 0)
    {
        return rc;
    }
    if (csv->fields[0][0] == '\0' || strlen(csv->fields[0]) >= sizeof r->profile)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             csv->line,
                             "profile",
                             "expected a profile name of 1 to %zu characters",
                             sizeof r->profile - 1);
    }
    strcpy(r->profile, csv->fields[0]);
    if ((rc = positive(csv, 1, "workers", &workers, diag)) < 0
        || (rc = positive(csv, 2, "rcp", &r->rcp, diag)) < 0
        || (rc = positive(csv, 3, "flow_rate", &r->flow_rate, diag)) < 0
        || (rc = positive(csv, 4, "cpu_s_per_sim_s", &r->cpu_s_per_sim_s, diag)) < 0)
    {
        return rc;
    }
    if (workers != floor(workers))
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             csv->line,
                             "workers",
                             "expected a whole number, got '%.60s'",
                             csv->fields[1]);
    }
    r->workers = (uint32_t)workers;
    return DDNN_OK;
}

int
ddnn_calibration_parse(ddnn_calibration* out, const char* text, size_t len, ddnn_diag* diag)
{
    ddnn_csv* csv = malloc(sizeof *csv);
    ddnn_calibration c = {NULL, 0};
    size_t cap = 0;
    int rc;
    if (!csv)
    {
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    ddnn_csv_init(csv, text, len, DDNN_CALIBRATION_COLUMNS);
    while ((rc = ddnn_csv_next(csv, diag)) == 1)
    {
        if (!csv->header_seen)
        {
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_SYNTAX,
                               csv->line,
                               "",
                               "expected the header '%s' before the rows",
                               DDNN_CALIBRATION_COLUMNS);
            break;
        }
        if (c.count == DDNN_CALIBRATION_MAX_ROWS)
        {
            /* The estimate triangulates the rows: work that grows with their square. */
            rc = ddnn_diag_set(diag,
                               DDNN_ERR_TOO_LARGE,
                               csv->line,
                               "",
                               "more than %d rows in the calibration table",
                               DDNN_CALIBRATION_MAX_ROWS);
            break;
        }
        if (DDNN_ARRAY_RESERVE(c.rows, cap, c.count + 1) != DDNN_OK)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, csv->line, "", "out of memory");
            break;
        }
        if ((rc = read_row(csv, &c.rows[c.count], diag)) < 0)
        {
            break;
        }
        c.count++;
    }
    free(csv);
    if (rc == 0 && c.count == 0)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "the calibration table has no rows");
    }
    if (rc < 0)
    {
        free(c.rows);
        return rc;
    }
    *out = c;
    return DDNN_OK;
}

void
ddnn_calibration_free(ddnn_calibration* c)
{
    if (c)
    {
        free(c->rows);
        c->rows = NULL;
        c->count = 0;
    }
}
