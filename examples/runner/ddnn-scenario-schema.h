/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The XML schema of scenario and campaign files, generated from the parameter table
 * (ddnn-scenario-rows.def), so that a new parameter is one row and the schema cannot drift
 * from it. The readers validate against it; ddnn-scenario-schema (a program of the build)
 * writes it for editors and xmllint.
 */
#ifndef DDNN_SCENARIO_SCHEMA_H
#define DDNN_SCENARIO_SCHEMA_H

#include "ns3/ddnn-error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /* The schema as XML text in a malloc'ed, NUL-terminated buffer of *len bytes (free() it);
     * the choices hosts set from their registries included. DDNN_ERR_NOMEM. */
    int ddnn_scenario_schema(char** out, size_t* len);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_SCENARIO_SCHEMA_H */
