/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tensor fusion (as in Horovod): layers are taken in backward order (last
 * layer first) and packed into fusion buffers of at most fusion_bytes. A layer
 * larger than fusion_bytes travels alone in an oversized buffer.
 */
#ifndef DDNN_FUSION_H
#define DDNN_FUSION_H

#include "ddnn-error.h"
#include "ddnn-profile.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct
    {
        uint32_t lowest_layer; /* lowest layer index; also the buffer's priority (lower = sooner) */
        uint32_t highest_layer; /* the buffer holds every layer in [lowest_layer, highest_layer] */
        uint64_t bytes;         /* sum of the layers' param_bytes */
        int oversized;          /* 1 when a single layer exceeds the fusion size */
    } ddnn_fusion_buffer;

    typedef struct ddnn_fusion_plan ddnn_fusion_plan; /* opaque */

    /* fusion_bytes must be at least 1. */
    int ddnn_fusion_plan_new(ddnn_fusion_plan** out,
                             const ddnn_profile* profile,
                             uint64_t fusion_bytes);
    void ddnn_fusion_plan_free(ddnn_fusion_plan* plan);

    /* Buffers are numbered in the order they fill: buffer 0 holds the last layer. */
    size_t ddnn_fusion_plan_buffer_count(const ddnn_fusion_plan* plan);
    const ddnn_fusion_buffer* ddnn_fusion_plan_buffer(const ddnn_fusion_plan* plan, size_t buffer);
    /* The buffer that carries a layer's gradients. */
    size_t ddnn_fusion_plan_buffer_of_layer(const ddnn_fusion_plan* plan, uint32_t layer);
    /* How many layers were larger than the fusion size (each travels alone). */
    size_t ddnn_fusion_plan_oversized_count(const ddnn_fusion_plan* plan);
    /*
     * Recomputes each buffer's bytes from `profile`'s layers, keeping which layers it holds: a
     * scaled replica's model (ddnn_profile_scale_bytes) fused as the model at full scale was,
     * whatever the rounding of its layers. DDNN_ERR_INVALID for a profile of another layer
     * count.
     */
    int ddnn_fusion_plan_refill(ddnn_fusion_plan* plan, const ddnn_profile* profile);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_FUSION_H */
