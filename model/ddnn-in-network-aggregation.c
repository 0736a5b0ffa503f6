/* SPDX-License-Identifier: GPL-2.0-only */
/* In-network aggregation through the collective seam (ddnn-in-network-aggregation.h). */
#include "ddnn-in-network-aggregation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct
{
    ddnn_collective_callbacks cb;
    void* ctx;
    uint64_t buffer_bytes; /* 0: no buffer in progress */
    uint64_t received;
} ina_state;

/* Every worker sends to, and hears from, the element only. */
static uint32_t
ina_peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    (void)cfg;
    if (max >= 1)
        out[0] = DDNN_PEER_NETWORK;
    return 1;
}

static uint64_t
ina_bytes_sent_by(const ddnn_collective_config* cfg, uint64_t buffer_bytes)
{
    (void)cfg;
    return buffer_bytes;
}

/* Worker to switch and back: one path between two workers of the rack. */
static uint32_t
ina_sequential_steps(const ddnn_collective_config* cfg)
{
    (void)cfg;
    return 1;
}

static int
ina_create(void** state,
           const ddnn_collective_config* cfg,
           const ddnn_collective_callbacks* cb,
           void* ctx)
{
    ina_state* s;
    (void)cfg; /* parameter servers, if any are configured, are not this collective's */
    s = calloc(1, sizeof *s);
    if (!s)
        return DDNN_ERR_NOMEM;
    s->cb = *cb;
    s->ctx = ctx;
    *state = s;
    return DDNN_OK;
}

static void
ina_destroy(void* state)
{
    free(state);
}

static int
ina_start(void* state, uint64_t buffer_bytes)
{
    ina_state* s = state;
    s->buffer_bytes = buffer_bytes;
    s->received = 0;
    return s->cb.send(s->ctx, DDNN_PEER_NETWORK, 0, 0, buffer_bytes);
}

static int
ina_on_received(void* state, uint32_t peer, uint64_t bytes)
{
    ina_state* s = state;
    int rc;
    if (s->buffer_bytes == 0 || bytes > s->buffer_bytes - s->received)
        return DDNN_ERR_STATE; /* a sum with no buffer, or more of it than the buffer holds */
    s->received += bytes;
    if (s->received < s->buffer_bytes)
        return DDNN_OK;
    s->buffer_bytes = 0;
    if (s->cb.received && (rc = s->cb.received(s->ctx, peer, 0, 0, s->received)) < 0)
        return rc;
    return s->cb.done(s->ctx);
}

static int
ina_active(const void* state)
{
    return ((const ina_state*)state)->buffer_bytes > 0;
}

static void
ina_describe(const void* state, char* out, size_t size)
{
    const ina_state* s = state;
    snprintf(out,
             size,
             "has %" PRIu64 " of the %" PRIu64 " bytes of the sum from the switch",
             s->received,
             s->buffer_bytes);
}

const ddnn_collective_ops ddnn_in_network_aggregation_ops = {
    .name = "in-network-aggregation",
    .summary = "the switch the workers share sums their gradients: each worker sends its buffer "
               "once and receives the sum once",
    .dedicated_servers = 0,
    .group_distribution = 0,
    .network_peer = 1,
    .send_peers = ina_peers,
    .receive_peers = ina_peers,
    .bytes_sent_by = ina_bytes_sent_by,
    .sequential_steps = ina_sequential_steps,
    .phase_of_step = NULL,
    .create = ina_create,
    .destroy = ina_destroy,
    .start = ina_start,
    .on_received = ina_on_received,
    .active = ina_active,
    .describe = ina_describe,
};
