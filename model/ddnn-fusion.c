/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-fusion.h"

#include <stdlib.h>

struct ddnn_fusion_plan
{
    ddnn_fusion_buffer* buffers;
    size_t count;
    size_t* buffer_of_layer;
    size_t layer_count;
    size_t oversized;
};

void
ddnn_fusion_plan_free(ddnn_fusion_plan* plan)
{
    if (plan)
    {
        free(plan->buffers);
        free(plan->buffer_of_layer);
        free(plan);
    }
}

int
ddnn_fusion_plan_new(ddnn_fusion_plan** out, const ddnn_profile* profile, uint64_t fusion_bytes)
{
    size_t layers, i;
    ddnn_fusion_plan* plan;
    ddnn_fusion_buffer* open = NULL;
    if (!out || !profile || fusion_bytes == 0)
        return DDNN_ERR_INVALID;
    layers = ddnn_profile_layer_count(profile);
    plan = calloc(1, sizeof *plan);
    if (!plan)
        return DDNN_ERR_NOMEM;
    /* At most one buffer per layer. */
    plan->buffers = calloc(layers, sizeof *plan->buffers);
    plan->buffer_of_layer = calloc(layers, sizeof *plan->buffer_of_layer);
    if (!plan->buffers || !plan->buffer_of_layer)
    {
        ddnn_fusion_plan_free(plan);
        return DDNN_ERR_NOMEM;
    }
    plan->layer_count = layers;
    for (i = layers; i-- > 0;)
    {
        uint64_t bytes = ddnn_profile_layer(profile, i)->param_bytes;
        if (bytes > fusion_bytes)
        {
            open = NULL; /* close the current buffer; this layer goes alone */
            plan->oversized++;
        }
        else if (open && open->bytes + bytes <= fusion_bytes)
        {
            open->lowest_layer = (uint32_t)i;
            open->bytes += bytes;
            plan->buffer_of_layer[i] = plan->count - 1;
            continue;
        }
        plan->buffers[plan->count].lowest_layer = (uint32_t)i;
        plan->buffers[plan->count].highest_layer = (uint32_t)i;
        plan->buffers[plan->count].bytes = bytes;
        plan->buffers[plan->count].oversized = bytes > fusion_bytes;
        open = bytes > fusion_bytes ? NULL : &plan->buffers[plan->count];
        plan->buffer_of_layer[i] = plan->count++;
    }
    *out = plan;
    return DDNN_OK;
}

size_t
ddnn_fusion_plan_buffer_count(const ddnn_fusion_plan* plan)
{
    return plan->count;
}

const ddnn_fusion_buffer*
ddnn_fusion_plan_buffer(const ddnn_fusion_plan* plan, size_t buffer)
{
    return buffer < plan->count ? &plan->buffers[buffer] : NULL;
}

size_t
ddnn_fusion_plan_buffer_of_layer(const ddnn_fusion_plan* plan, uint32_t layer)
{
    return layer < plan->layer_count ? plan->buffer_of_layer[layer] : (size_t)-1;
}

size_t
ddnn_fusion_plan_oversized_count(const ddnn_fusion_plan* plan)
{
    return plan->oversized;
}

int
ddnn_fusion_plan_refill(ddnn_fusion_plan* plan, const ddnn_profile* profile)
{
    size_t b, i;
    if (!plan || !profile || ddnn_profile_layer_count(profile) != plan->layer_count)
        return DDNN_ERR_INVALID;
    for (b = 0; b < plan->count; b++)
    {
        ddnn_fusion_buffer* buffer = &plan->buffers[b];
        buffer->bytes = 0;
        for (i = buffer->lowest_layer; i <= buffer->highest_layer; i++)
            buffer->bytes += ddnn_profile_layer(profile, i)->param_bytes;
    }
    return DDNN_OK;
}
