/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-collective.h"

#include "ddnn-parameter-server.h"
#include "ddnn-ring.h"

#include <stdlib.h>
#include <string.h>

/* Every collective a scenario can name: a new one adds its table here. */
static const ddnn_collective_ops* const registry[] = {
    &ddnn_ring_allreduce_ops,
    &ddnn_parameter_server_ops,
};

/* Most peers one worker may have: bounds the on_received check below. */
#define PEERS_MAX 4096

struct ddnn_collective
{
    const ddnn_collective_ops* ops;
    void* state;
    uint32_t receive_peers;
    uint32_t* receive_from; /* [receive_peers] */
};

uint32_t
ddnn_collective_ranks(const ddnn_collective_config* cfg)
{
    return cfg->workers + (cfg->dedicated ? cfg->servers : 0);
}

size_t
ddnn_collective_registered(void)
{
    return sizeof registry / sizeof registry[0];
}

const ddnn_collective_ops*
ddnn_collective_at(size_t i)
{
    return i < ddnn_collective_registered() ? registry[i] : NULL;
}

const ddnn_collective_ops*
ddnn_collective_find(const char* name)
{
    size_t i;
    for (i = 0; name && i < ddnn_collective_registered(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

void
ddnn_collective_callbacks_init(ddnn_collective_callbacks* cb)
{
    *cb = (ddnn_collective_callbacks){0}; /* a null pointer per callback */
}

int
ddnn_collective_new(ddnn_collective** out,
                    const ddnn_collective_ops* ops,
                    const ddnn_collective_config* cfg,
                    const ddnn_collective_callbacks* cb,
                    void* ctx)
{
    ddnn_collective* c;
    int rc;
    if (!out || !ops || !cfg || !cb || !cb->send || !cb->done || cfg->workers < 2
        || cfg->dedicated > 1)
        return DDNN_ERR_INVALID;
    if (cfg->dedicated ? cfg->servers == 0 || cfg->servers > PEERS_MAX
                             || cfg->workers > UINT32_MAX - cfg->servers
                       : cfg->servers > cfg->workers)
        return DDNN_ERR_INVALID;
    if (cfg->rank >= ddnn_collective_ranks(cfg))
        return DDNN_ERR_INVALID;
    c = calloc(1, sizeof *c);
    if (!c)
        return DDNN_ERR_NOMEM;
    c->ops = ops;
    c->receive_peers = ops->receive_peers(cfg, NULL, 0);
    if (c->receive_peers > PEERS_MAX)
    {
        free(c);
        return DDNN_ERR_RANGE;
    }
    c->receive_from = calloc(c->receive_peers ? c->receive_peers : 1, sizeof *c->receive_from);
    if (!c->receive_from)
    {
        free(c);
        return DDNN_ERR_NOMEM;
    }
    ops->receive_peers(cfg, c->receive_from, c->receive_peers);
    if ((rc = ops->create(&c->state, cfg, cb, ctx)) < 0)
    {
        free(c->receive_from);
        free(c);
        return rc;
    }
    *out = c;
    return DDNN_OK;
}

void
ddnn_collective_free(ddnn_collective* c)
{
    if (c)
    {
        c->ops->destroy(c->state);
        free(c->receive_from);
        free(c);
    }
}

const ddnn_collective_ops*
ddnn_collective_get_ops(const ddnn_collective* c)
{
    return c->ops;
}

int
ddnn_collective_start(ddnn_collective* c, uint64_t buffer_bytes)
{
    if (!c || buffer_bytes == 0)
        return DDNN_ERR_INVALID;
    if (c->ops->active(c->state))
        return DDNN_ERR_STATE;
    return c->ops->start(c->state, buffer_bytes);
}

int
ddnn_collective_on_received(ddnn_collective* c, uint32_t peer, uint64_t bytes)
{
    uint32_t i;
    if (!c)
        return DDNN_ERR_INVALID;
    for (i = 0; i < c->receive_peers; i++)
        if (c->receive_from[i] == peer)
            return c->ops->on_received(c->state, peer, bytes);
    return DDNN_ERR_STATE; /* bytes from a worker this one never hears from */
}

int
ddnn_collective_active(const ddnn_collective* c)
{
    return c->ops->active(c->state);
}

void
ddnn_collective_describe(const ddnn_collective* c, char* out, size_t size)
{
    if (size == 0)
        return;
    out[0] = '\0';
    if (c->ops->active(c->state))
        c->ops->describe(c->state, out, size);
}
