/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-manifest.h"

#include "ns3/ddnn-array.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int
ddnn_manifest_path_is_inside(const char* path)
{
    const char* part = path;
    size_t i;
    if (path[0] == '\0' || path[0] == '/')
    {
        return 0;
    }
    for (i = 0; path[i]; i++)
    {
        if ((unsigned char)path[i] < 0x20 || path[i] == 0x7f)
        {
            return 0;
        }
    }
    while (part)
    {
        const char* slash = strchr(part, '/');
        size_t n = slash ? (size_t)(slash - part) : strlen(part);
        if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.'))
        {
            return 0;
        }
        part = slash ? slash + 1 : NULL;
    }
    return 1;
}

/* Reads a number of `base` (10 or 16, digits only) up to a blank; 0 when there is none. */
static const char*
number(const char* at, const char* end, int base, uint64_t* out)
{
    uint64_t v = 0;
    const char* start = at;
    for (; at < end && *at != ' '; at++)
    {
        int digit = isdigit((unsigned char)*at)              ? *at - '0'
                    : base == 16 && *at >= 'a' && *at <= 'f' ? *at - 'a' + 10
                                                             : -1;
        if (digit < 0 || v > (UINT64_MAX - (uint64_t)digit) / (uint64_t)base)
        {
            return NULL;
        }
        v = v * (uint64_t)base + (uint64_t)digit;
    }
    if (at == start || at == end)
    {
        return NULL;
    }
    *out = v;
    return at + 1;
}

static int
parse_line(const char* at, const char* end, long line, ddnn_manifest_entry* e, ddnn_diag* diag)
{
    size_t n;
    memset(e, 0, sizeof *e);
    e->line = line;
    if (!(at = number(at, end, 10, &e->size)) || !(at = number(at, end, 16, &e->checksum)))
    {
        return ddnn_diag_set(
            diag, DDNN_ERR_SYNTAX, line, "", "expected 'SIZE FNV1A64 PATH' (decimal, hexadecimal)");
    }
    n = (size_t)(end - at);
    if (n >= sizeof e->path || memchr(at, '\0', n))
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             line,
                             "path",
                             "expected a path of at most %d bytes",
                             DDNN_MANIFEST_MAX_PATH - 1);
    }
    memcpy(e->path, at, n);
    e->path[n] = '\0';
    if (!ddnn_manifest_path_is_inside(e->path))
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             line,
                             "path",
                             "expected a path inside the run folder (no '/' first, no '..')");
    }
    return DDNN_OK;
}

int
ddnn_manifest_parse(ddnn_manifest* out, const char* text, size_t len, ddnn_diag* diag)
{
    ddnn_manifest m = {NULL, 0};
    size_t cap = 0, pos = 0, i;
    long line = 0;
    int rc = DDNN_OK;
    if (len > DDNN_MANIFEST_MAX_BYTES)
    {
        return ddnn_diag_set(
            diag, DDNN_ERR_TOO_LARGE, 0, "", "larger than %d bytes", DDNN_MANIFEST_MAX_BYTES);
    }
    while (pos < len && rc == DDNN_OK)
    {
        const char* start = text + pos;
        const char* nl = memchr(start, '\n', len - pos);
        const char* end = nl ? nl : text + len;
        pos = (size_t)(end - text) + 1;
        line++;
        if (end == start || start[0] == '#')
        {
            continue;
        }
        if (m.count == DDNN_MANIFEST_MAX_FILES)
        {
            rc = ddnn_diag_set(
                diag, DDNN_ERR_TOO_LARGE, line, "", "more than %d files", DDNN_MANIFEST_MAX_FILES);
            break;
        }
        if (DDNN_ARRAY_RESERVE(m.entries, cap, m.count + 1) != DDNN_OK)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, line, "", "out of memory");
            break;
        }
        rc = parse_line(start, end, line, &m.entries[m.count], diag);
        /* Listed twice: a writer lists each file once (at most MAX_FILES: look back). */
        for (i = 0; rc == DDNN_OK && i < m.count; i++)
        {
            if (strcmp(m.entries[i].path, m.entries[m.count].path) == 0)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_DUPLICATE,
                                   line,
                                   "path",
                                   "'%.100s' is listed twice",
                                   m.entries[i].path);
            }
        }
        m.count += rc == DDNN_OK;
    }
    if (rc == DDNN_OK && m.count == 0)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_EMPTY, 0, "", "lists no file");
    }
    if (rc != DDNN_OK)
    {
        free(m.entries);
        return rc;
    }
    *out = m;
    return DDNN_OK;
}

void
ddnn_manifest_free(ddnn_manifest* m)
{
    if (m)
    {
        free(m->entries);
        m->entries = NULL;
        m->count = 0;
    }
}
