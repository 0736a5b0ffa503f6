/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening a user's input file, the one way every reader does it (the C core's and the C++
 * readers of the module and the runner): regular files only, so that a FIFO, a device such as
 * /dev/zero or a folder is refused at once instead of blocking or growing memory (the file
 * is opened with O_NONBLOCK, so a FIFO without a writer does not block the open), and the
 * size checked against the caller's cap for that kind of file before a byte is read.
 */
#ifndef DDNN_FILE_H
#define DDNN_FILE_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* max_bytes for ddnn_open_input: no cap on the size (files hashed as they stream by). */
#define DDNN_FILE_ANY_SIZE SIZE_MAX

    /*
     * Opens path for reading if it is a regular file of at most max_bytes: *fd (the caller
     * closes it) and *size. DDNN_ERR_IO "cannot open: REASON" or "not a regular file (a
     * folder)" and the like, DDNN_ERR_TOO_LARGE "file larger than N bytes".
     */
    int ddnn_open_input(
        const char* path, size_t max_bytes, int* fd, uint64_t* size, ddnn_diag* diag);

    /*
     * Reads a whole regular file of at most max_bytes (ddnn_open_input's checks) into a
     * NUL-terminated buffer the caller frees with free().
     */
    int ddnn_read_file(
        const char* path, size_t max_bytes, char** out, size_t* out_len, ddnn_diag* diag);

/*
 * Defines a format's file reader, int NAME(OUT_TYPE out, const char* path, ddnn_diag* diag):
 * reads path (ddnn_read_file, at most MAX_BYTES) and parses the text with
 * PARSE(out, text, len, diag).
 */
#define DDNN_FILE_READER(name, out_type, parse, max_bytes) \
    int name(out_type out, const char* path, ddnn_diag* diag) \
    { \
        char* text; \
        size_t len; \
        int rc = ddnn_read_file(path, (max_bytes), &text, &len, diag); \
        if (rc < 0) \
        { \
            return rc; \
        } \
        rc = parse(out, text, len, diag); \
        free(text); \
        return rc; \
    }

#ifdef __cplusplus
}
#endif

#endif /* DDNN_FILE_H */
