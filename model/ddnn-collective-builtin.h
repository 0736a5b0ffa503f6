/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collectives ddnn ships (private to the core): the registry (ddnn-collective.c) adds
 * them before any other, in this order.
 */
#ifndef DDNN_COLLECTIVE_BUILTIN_H
#define DDNN_COLLECTIVE_BUILTIN_H

#include "ddnn-collective.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /* The i-th built-in collective, NULL past the last. */
    const ddnn_collective_ops* ddnn_collective_builtin(size_t i);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_COLLECTIVE_BUILTIN_H */
