/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle's priorities, chosen offline from a reference run: the buffers.csv of a run with
 * a priority policy (its columns buffer, end_s and deadline_s, read by name among the
 * others). A buffer is raised when, in at least half of the reference run's finished
 * collectives of it, the collective ended after its deadline: the next forward pass waited
 * for it. Run at low priority, the reference tells which buffers cannot yield.
 */
#ifndef DDNN_ORACLE_H
#define DDNN_ORACLE_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /*
     * Reads `text` (a buffers.csv) for a model of `buffers` buffers: raise[b] = 1 for a buffer
     * to raise, else 0. A missing column, a field that is not a number, a buffer the model does
     * not have, a reference naming fewer buffers than the model has (another model's run), or
     * no finished collective at all is an error (diag names the line and field).
     */
    int ddnn_oracle_parse(
        const char* text, size_t len, uint32_t buffers, uint8_t* raise, ddnn_diag* diag);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_ORACLE_H */
