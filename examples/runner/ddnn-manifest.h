/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run folder's MANIFEST: "SIZE FNV1A64 PATH" per output file (size in decimal, checksum in
 * hexadecimal, the path relative to the run folder and inside it), '#' starts a comment
 * line. The reader refuses a path that could leave the folder (absolute, "..", "." or empty
 * parts), control characters, and a path listed twice.
 */
#ifndef DDNN_MANIFEST_H
#define DDNN_MANIFEST_H

#include "ns3/ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* A MANIFEST larger than this is damaged (a run writes a few dozen lines). */
#define DDNN_MANIFEST_MAX_BYTES (1024 * 1024)
#define DDNN_MANIFEST_MAX_PATH  1024
/* Files of one run: a few per training job, the datacenter's own, and --compare's copies. */
#define DDNN_MANIFEST_MAX_FILES 4096

    typedef struct
    {
        uint64_t size;
        uint64_t checksum;
        char path[DDNN_MANIFEST_MAX_PATH];
        long line;
    } ddnn_manifest_entry;

    typedef struct
    {
        ddnn_manifest_entry* entries;
        size_t count;
    } ddnn_manifest;

    int ddnn_manifest_parse(ddnn_manifest* out, const char* text, size_t len, ddnn_diag* diag);
    void ddnn_manifest_free(ddnn_manifest* m);

    /* Whether `path` names a file inside its folder: relative, without "..", "." or empty
     * parts, without control characters. */
    int ddnn_manifest_path_is_inside(const char* path);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_MANIFEST_H */
