/* SPDX-License-Identifier: GPL-2.0-only */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L /* open's O_CLOEXEC, fstat */
#endif

#include "ddnn-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the message. */
static const char*
kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a plain file";
}

int
ddnn_open_input(const char* path, size_t max_bytes, int* fd, uint64_t* size, ddnn_diag* diag)
{
    struct stat st;
    /* O_NONBLOCK: opening a FIFO without a writer returns at once (and is then refused). */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0)
        return ddnn_diag_set(diag, DDNN_ERR_IO, 0, "", "cannot open: %s", strerror(errno));
    if (fstat(f, &st) != 0)
    {
        int e = errno;
        close(f);
        return ddnn_diag_set(diag, DDNN_ERR_IO, 0, "", "cannot open: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode))
    {
        close(f);
        return ddnn_diag_set(
            diag, DDNN_ERR_IO, 0, "", "expected a regular file, got %s", kind_of(st.st_mode));
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)max_bytes)
    {
        close(f);
        return ddnn_diag_set(diag,
                             DDNN_ERR_TOO_LARGE,
                             0,
                             "",
                             "file larger than %lu bytes",
                             (unsigned long)max_bytes);
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return DDNN_OK;
}

int
ddnn_read_file(const char* path, size_t max_bytes, char** out, size_t* out_len, ddnn_diag* diag)
{
    int fd = -1;
    uint64_t size = 0;
    char* buf = NULL;
    size_t len = 0, cap;
    int rc = ddnn_open_input(path, max_bytes, &fd, &size, diag);
    if (rc != DDNN_OK)
        return rc;
    /* The size fstat gave, plus room to see the end (or that the file grew past the cap;
     * files of /proc show a size of 0). */
    cap = (size_t)size + 4096;
    for (;;)
    {
        ssize_t n;
        if (len == cap || !buf)
        {
            char* grown;
            if (buf) /* double, but never far past the cap */
                cap = cap > max_bytes / 2 ? max_bytes + (max_bytes < SIZE_MAX) : cap * 2;
            grown = realloc(buf, cap + 1);
            if (!grown)
            {
                free(buf);
                close(fd);
                return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory reading the file");
            }
            buf = grown;
        }
        n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
        {
            int e = errno;
            free(buf);
            close(fd);
            return ddnn_diag_set(diag, DDNN_ERR_IO, 0, "", "read error: %s", strerror(e));
        }
        len += (size_t)n;
        if (len > max_bytes)
        {
            free(buf);
            close(fd);
            return ddnn_diag_set(diag,
                                 DDNN_ERR_TOO_LARGE,
                                 0,
                                 "",
                                 "file larger than %lu bytes",
                                 (unsigned long)max_bytes);
        }
        if (n == 0)
            break;
    }
    close(fd);
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return DDNN_OK;
}
