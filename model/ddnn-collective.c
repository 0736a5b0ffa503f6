/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-collective.h"

#include "ddnn-collective-builtin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registry (ddnn_collective_register): written at start-up, read afterwards. */
static const ddnn_collective_ops* registry[DDNN_COLLECTIVES_MAX];
static size_t registered;
static int builtin_added;

/* Most peers one worker may have: bounds the on_received check below. */
#define PEERS_MAX 4096

struct ddnn_collective
{
    const ddnn_collective_ops* ops;
    ddnn_collective_config cfg;
    void* state;
    uint32_t receive_peers;
    uint32_t* receive_from; /* [receive_peers] */
};

uint32_t
ddnn_collective_ranks(const ddnn_collective_config* cfg)
{
    return cfg->workers + (cfg->dedicated ? cfg->servers : 0);
}

/* A name a scenario file and a list of choices can hold: [a-z0-9-]+. */
static int
valid_name(const char* name)
{
    size_t i;
    if (!name || !*name)
        return 0;
    for (i = 0; name[i]; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')
              || name[i] == '-'))
            return 0;
    return 1;
}

static int
add(const ddnn_collective_ops* ops)
{
    size_t i;
    if (!ops || !valid_name(ops->name) || !ops->summary || !ops->send_peers || !ops->receive_peers
        || !ops->bytes_sent_by || !ops->sequential_steps || !ops->create || !ops->destroy
        || !ops->start || !ops->on_received || !ops->active || !ops->describe)
        return DDNN_ERR_INVALID;
    for (i = 0; i < registered; i++)
        if (strcmp(registry[i]->name, ops->name) == 0)
            return DDNN_ERR_DUPLICATE;
    if (registered == DDNN_COLLECTIVES_MAX)
        return DDNN_ERR_TOO_LARGE;
    registry[registered++] = ops;
    return DDNN_OK;
}

/* Every registry call starts here, so the built-in collectives come first. */
static void
add_builtin(void)
{
    size_t i;
    if (builtin_added)
        return;
    builtin_added = 1;
    for (i = 0; ddnn_collective_builtin(i); i++)
        add(ddnn_collective_builtin(i)); /* valid and distinct: unit-collective checks them */
}

int
ddnn_collective_register(const ddnn_collective_ops* ops)
{
    add_builtin();
    return add(ops);
}

size_t
ddnn_collective_registered(void)
{
    add_builtin();
    return registered;
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

size_t
ddnn_collective_names(const char* separator, char* out, size_t size)
{
    size_t i, length = 0;
    if (size > 0)
        out[0] = '\0';
    for (i = 0; i < ddnn_collective_registered(); i++)
    {
        const int n = snprintf(length < size ? out + length : NULL,
                               length < size ? size - length : 0,
                               "%s%s",
                               i ? separator : "",
                               registry[i]->name);
        length += n > 0 ? (size_t)n : 0;
    }
    return length;
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
        || cfg->dedicated > 1 || (cfg->dedicated && !ops->dedicated_servers))
        return DDNN_ERR_INVALID;
    /* A group's sends replace the unicast ones whose peers receive nothing else from the
     * sender: the dedicated servers' updates. */
    if (cfg->group_distribution > 1
        || (cfg->group_distribution
            && (!ops->group_distribution || !cfg->dedicated || !cb->send_group)))
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
    c->cfg = *cfg;
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
ddnn_collective_phase_of_step(const ddnn_collective* c, uint32_t step)
{
    return c->ops->phase_of_step ? (int)c->ops->phase_of_step(&c->cfg, step) : -1;
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
