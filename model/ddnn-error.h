/* SPDX-License-Identifier: GPL-2.0-only */
/* Error codes and diagnostics shared by every part of the ddnn C core. */
#ifndef DDNN_ERROR_H
#define DDNN_ERROR_H

#ifdef __cplusplus
extern "C"
{
#endif

    /* Every core function returns DDNN_OK or one of these negative codes. */
    enum ddnn_error
    {
        DDNN_OK = 0,
        DDNN_ERR_NOMEM = -1,     /* allocation failed */
        DDNN_ERR_IO = -2,        /* file missing or unreadable */
        DDNN_ERR_EMPTY = -3,     /* file holds no data rows */
        DDNN_ERR_SYNTAX = -4,    /* field missing or not a number */
        DDNN_ERR_RANGE = -5,     /* value out of its allowed range */
        DDNN_ERR_DUPLICATE = -6, /* the same key appears twice */
        DDNN_ERR_MISSING = -7,   /* an expected key is absent */
        DDNN_ERR_ORDER = -8,     /* values out of the required order */
        DDNN_ERR_TOO_LARGE = -9, /* input over the size bound */
        DDNN_ERR_INVALID = -10,  /* invalid argument to a core call */
        DDNN_ERR_STATE = -11     /* call not allowed in the object's current state */
    };

    /* A static, human-readable description of an error code. */
    const char* ddnn_strerror(int code);

    /*
     * Where and why input was rejected. Readers fill it on error so the host can
     * print one line naming the file, the line and the field. A reader that succeeds on a
     * deprecated form leaves a notice instead: code DDNN_OK and a message, for a warning.
     */
    typedef struct
    {
        int code;          /* the ddnn_error returned */
        long line;         /* 1-based line of the input, 0 when not tied to a line */
        char field[40];    /* name of the field or attribute at fault, may be empty */
        char message[200]; /* what was expected and what was found */
    } ddnn_diag;

    /* Fills diag (when not NULL) and returns code, so readers can `return ddnn_diag_set(...)`. */
    int ddnn_diag_set(ddnn_diag* diag, int code, long line, const char* field, const char* fmt, ...)
#ifdef __GNUC__
        __attribute__((format(printf, 5, 6)))
#endif
        ;

    /* Formats "FILE:LINE: field 'F': MESSAGE" (parts omitted when unknown) into out. */
    void ddnn_diag_format(const ddnn_diag* diag,
                          const char* file,
                          char* out,
                          unsigned long out_size);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_ERROR_H */
