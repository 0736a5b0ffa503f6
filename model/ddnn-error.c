/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char*
ddnn_strerror(int code)
{
    switch (code)
    {
        case DDNN_OK:
            return "success";
        case DDNN_ERR_NOMEM:
            return "out of memory";
        case DDNN_ERR_IO:
            return "cannot read file";
        case DDNN_ERR_EMPTY:
            return "no data";
        case DDNN_ERR_SYNTAX:
            return "malformed field";
        case DDNN_ERR_RANGE:
            return "value out of range";
        case DDNN_ERR_DUPLICATE:
            return "duplicate entry";
        case DDNN_ERR_MISSING:
            return "missing entry";
        case DDNN_ERR_ORDER:
            return "values out of order";
        case DDNN_ERR_TOO_LARGE:
            return "input too large";
        case DDNN_ERR_INVALID:
            return "invalid argument";
        case DDNN_ERR_STATE:
            return "not allowed in the current state";
        default:
            return "unknown error";
    }
}

int
ddnn_diag_set(ddnn_diag* diag, int code, long line, const char* field, const char* fmt, ...)
{
    if (diag)
    {
        va_list ap;
        diag->code = code;
        diag->line = line;
        snprintf(diag->field, sizeof diag->field, "%s", field ? field : "");
        va_start(ap, fmt);
        vsnprintf(diag->message, sizeof diag->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

void
ddnn_diag_format(const ddnn_diag* diag, const char* file, char* out, unsigned long out_size)
{
    char where[300] = "";
    char what[80] = "";
    if (file && diag->line > 0)
        snprintf(where, sizeof where, "%s:%ld: ", file, diag->line);
    else if (file)
        snprintf(where, sizeof where, "%s: ", file);
    if (diag->field[0])
        snprintf(what, sizeof what, "field '%s': ", diag->field);
    snprintf(out,
             out_size,
             "%s%s%s",
             where,
             what,
             diag->message[0] ? diag->message : ddnn_strerror(diag->code));
}
