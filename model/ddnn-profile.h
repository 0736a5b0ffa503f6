/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DNN profile: per layer, the parameter (gradient) bytes and the forward and
 * backward compute time. Read from CSV rows "layer,param_bytes,forward_ns,backward_ns".
 */
#ifndef DDNN_PROFILE_H
#define DDNN_PROFILE_H

#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* A model's bytes: at most 2^53 (8 PiB), exact in a double and far from wrapping a sum. */
#define DDNN_PROFILE_MAX_MODEL_BYTES 9007199254740992ULL
/* An iteration's compute as profiled: at most 10^15 ns (11.6 days) in all, far inside ns-3's
 * signed 64-bit nanoseconds. */
#define DDNN_PROFILE_MAX_COMPUTE_NS  1000000000000000ULL

    typedef struct
    {
        uint32_t index;       /* 0 = first layer of the forward pass */
        uint64_t param_bytes; /* gradient bytes this layer contributes to each collective */
        uint64_t forward_ns;  /* forward compute time as stored in the profile */
        uint64_t backward_ns; /* backward compute time as stored in the profile */
    } ddnn_layer;

    typedef struct ddnn_profile ddnn_profile; /* opaque */

    /* Parses CSV text (rows in any order; indices must be 0..L-1, each once). */
    int ddnn_profile_parse(ddnn_profile** out, const char* text, size_t len, ddnn_diag* diag);

    /* Reads and parses a CSV file. */
    int ddnn_profile_read_file(ddnn_profile** out, const char* path, ddnn_diag* diag);

    /*
     * Builds a profile from layers[0..count), indexed 0..count-1 in order (the index fields are
     * set here), under the same bounds as a CSV; unlike a CSV, every compute time may be 0 (a
     * trace of communication only): such a profile cannot be scaled.
     */
    int ddnn_profile_from_layers(ddnn_profile** out,
                                 const ddnn_layer* layers,
                                 size_t count,
                                 ddnn_diag* diag);

    void ddnn_profile_free(ddnn_profile* p);

    size_t ddnn_profile_layer_count(const ddnn_profile* p);
    const ddnn_layer* ddnn_profile_layer(const ddnn_profile* p, size_t index);
    uint64_t ddnn_profile_total_bytes(const ddnn_profile* p);
    /* Sum of all stored forward and backward times: one iteration's compute. */
    uint64_t ddnn_profile_compute_ns(const ddnn_profile* p);

    /*
     * Scales the stored compute times so that one iteration computes for exactly
     * iteration_ns. Times are cumulated in execution order (forward 0..L-1, then
     * backward L-1..0) and each boundary is rounded to the nearest ns, so the
     * scaled times add up to iteration_ns exactly. forward_ns and backward_ns are
     * arrays of ddnn_profile_layer_count() entries, indexed by layer. DDNN_ERR_INVALID for a
     * profile without compute (ddnn_profile_from_layers).
     */
    int ddnn_profile_scale(const ddnn_profile* p,
                           uint64_t iteration_ns,
                           uint64_t* forward_ns,
                           uint64_t* backward_ns);

    /*
     * A scaled replica's model: every layer's parameter bytes times factor, rounded to the
     * nearest byte and at least 1 (a layer never vanishes, so the fusion plan keeps its
     * buffers). DDNN_ERR_INVALID for a factor outside (0, 1].
     */
    int ddnn_profile_scale_bytes(ddnn_profile* p, double factor);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_PROFILE_H */
