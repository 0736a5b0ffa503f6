/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The module's version: the one place it is written (the standalone build's CMake project,
 * the installed package and pkg-config file read it from here). CHANGES.md lists, per
 * version, what changed in the public API.
 */
#ifndef DDNN_VERSION_H
#define DDNN_VERSION_H

#define DDNN_VERSION_MAJOR                         0
#define DDNN_VERSION_MINOR                         2
#define DDNN_VERSION_PATCH                         0

/* "MAJOR.MINOR.PATCH", from the three numbers above. */
#define DDNN_VERSION_TEXT_OF_(major, minor, patch) #major "." #minor "." #patch
#define DDNN_VERSION_TEXT_OF(major, minor, patch)  DDNN_VERSION_TEXT_OF_(major, minor, patch)
#define DDNN_VERSION_STRING \
    DDNN_VERSION_TEXT_OF(DDNN_VERSION_MAJOR, DDNN_VERSION_MINOR, DDNN_VERSION_PATCH)

/*
 * Marks a public name that is renamed or removed: it keeps working for one minor version and
 * the compiler's warning names the replacement. Written as ns-3's NS_DEPRECATED(msg) from
 * ns-3.36 on (3.35's macro takes no message).
 */
#ifdef __cplusplus
#define DDNN_DEPRECATED(replacement) [[deprecated(replacement)]]
#endif

#endif /* DDNN_VERSION_H */
