/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The named transport profiles, the one place of their values: every TCP and queue setting
 * that moves results, by the attribute names of a scenario's <transport> ("segment-size"),
 * as text ("1448"). "tuned" (ddnn's own, the defaults) names every value; the others name where
 * they differ from it. TransportSettings (C++) and the runner's scenario rows read them here.
 */
#ifndef DDNN_TRANSPORT_PROFILE_H
#define DDNN_TRANSPORT_PROFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /* The profile every value defaults to. */
#define DDNN_TRANSPORT_DEFAULT_PROFILE "tuned"

    /*
     * The value profile `name` gives `attribute` (its own, else the tuned profile's), or NULL
     * when there is no such profile or no such attribute.
     */
    const char* ddnn_transport_profile_value(const char* name, const char* attribute);

    /* The i-th profile's name (in "tuned", "thesis", "linux" order), NULL past the last. */
    const char* ddnn_transport_profile_name(size_t i);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_TRANSPORT_PROFILE_H */
