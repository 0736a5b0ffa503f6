/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-parameter-server.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    STEP_PUSH = 0,
    STEP_PULL = 1
};

typedef struct
{
    ddnn_collective_config cfg; /* servers resolved: 1..N */
    ddnn_collective_callbacks cb;
    void* ctx;
    uint64_t buffer_bytes;
    uint64_t* received;   /* [N] bytes from each worker in this buffer */
    uint32_t pushes_left; /* (server) workers whose push has not fully arrived */
    uint32_t pulls_left;  /* servers whose update has not fully arrived */
    int aggregated;       /* (server) its shard is updated and sent back */
    int active;
} ps_state;

uint64_t
ddnn_ps_shard_bytes(uint64_t buffer_bytes, uint32_t servers, uint32_t shard)
{
    return buffer_bytes / servers + (shard < buffer_bytes % servers ? 1 : 0);
}

static uint32_t
servers_of(const ddnn_collective_config* cfg)
{
    return cfg->servers ? cfg->servers : cfg->workers;
}

static int
is_server(const ddnn_collective_config* cfg, uint32_t rank)
{
    return rank < servers_of(cfg);
}

/* Push bytes worker `from` sends to worker `to` (its gradients of shard `to`). */
static uint64_t
push_bytes(const ps_state* ps, uint32_t from, uint32_t to)
{
    return from != to && is_server(&ps->cfg, to)
               ? ddnn_ps_shard_bytes(ps->buffer_bytes, ps->cfg.servers, to)
               : 0;
}

/* Pull bytes server `from` sends to worker `to` (the updated shard `from`). */
static uint64_t
pull_bytes(const ps_state* ps, uint32_t from, uint32_t to)
{
    return from != to && is_server(&ps->cfg, from)
               ? ddnn_ps_shard_bytes(ps->buffer_bytes, ps->cfg.servers, from)
               : 0;
}

/* A server exchanges with every worker; any other worker with the servers only. */
static uint32_t
ps_peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    uint32_t j, n = 0;
    for (j = 0; j < cfg->workers; j++)
        if (j != cfg->rank && (is_server(cfg, cfg->rank) || is_server(cfg, j)))
        {
            if (n < max)
                out[n] = j;
            n++;
        }
    return n;
}

static uint64_t
ps_bytes_sent_by(const ddnn_collective_config* cfg, uint64_t buffer_bytes)
{
    const uint32_t servers = servers_of(cfg);
    uint64_t bytes = 0;
    uint32_t k;
    for (k = 0; k < servers; k++)
        if (k != cfg->rank)
            bytes += ddnn_ps_shard_bytes(buffer_bytes, servers, k);
    if (is_server(cfg, cfg->rank))
        bytes
            += (uint64_t)(cfg->workers - 1) * ddnn_ps_shard_bytes(buffer_bytes, servers, cfg->rank);
    return bytes;
}

/* A push, then the pull it completes. */
static uint32_t
ps_sequential_steps(const ddnn_collective_config* cfg)
{
    (void)cfg;
    return 2;
}

static int
ps_create(void** state,
          const ddnn_collective_config* cfg,
          const ddnn_collective_callbacks* cb,
          void* ctx)
{
    ps_state* ps;
    if (cfg->workers < 2 || cfg->rank >= cfg->workers || cfg->servers > cfg->workers)
        return DDNN_ERR_INVALID;
    ps = calloc(1, sizeof *ps);
    if (!ps)
        return DDNN_ERR_NOMEM;
    ps->received = calloc(cfg->workers, sizeof *ps->received);
    if (!ps->received)
    {
        free(ps);
        return DDNN_ERR_NOMEM;
    }
    ps->cfg = *cfg;
    ps->cfg.servers = servers_of(cfg);
    ps->cb = *cb;
    ps->ctx = ctx;
    *state = ps;
    return DDNN_OK;
}

static void
ps_destroy(void* state)
{
    ps_state* ps = state;
    free(ps->received);
    free(ps);
}

/* The server's shard is complete: send the update to every other worker, then check done. */
static int
advance(ps_state* ps)
{
    const uint32_t r = ps->cfg.rank;
    int rc;
    if (is_server(&ps->cfg, r) && !ps->aggregated && ps->pushes_left == 0)
    {
        uint32_t j;
        ps->aggregated = 1;
        for (j = 0; j < ps->cfg.workers; j++)
        {
            uint64_t bytes = pull_bytes(ps, r, j);
            if (bytes && (rc = ps->cb.send(ps->ctx, j, STEP_PULL, r, bytes)) < 0)
                return rc;
        }
    }
    if (ps->active && ps->pulls_left == 0 && (ps->aggregated || !is_server(&ps->cfg, r)))
    {
        ps->active = 0;
        return ps->cb.done(ps->ctx);
    }
    return DDNN_OK;
}

static int
ps_start(void* state, uint64_t buffer_bytes)
{
    ps_state* ps = state;
    const uint32_t r = ps->cfg.rank;
    uint32_t j;
    int rc;
    ps->buffer_bytes = buffer_bytes;
    ps->active = 1;
    ps->aggregated = 0;
    ps->pushes_left = 0;
    ps->pulls_left = 0;
    memset(ps->received, 0, ps->cfg.workers * sizeof *ps->received);
    for (j = 0; j < ps->cfg.workers; j++)
    {
        ps->pushes_left += push_bytes(ps, j, r) > 0;
        ps->pulls_left += pull_bytes(ps, j, r) > 0;
    }
    for (j = 0; j < ps->cfg.workers; j++)
    {
        uint64_t bytes = push_bytes(ps, r, j);
        if (bytes && (rc = ps->cb.send(ps->ctx, j, STEP_PUSH, j, bytes)) < 0)
            return rc;
    }
    return advance(ps);
}

static int
ps_on_received(void* state, uint32_t peer, uint64_t bytes)
{
    ps_state* ps = state;
    const uint32_t r = ps->cfg.rank;
    const uint64_t push = push_bytes(ps, peer, r);
    const uint64_t pull = pull_bytes(ps, peer, r);
    const uint64_t before = ps->received[peer];
    const uint64_t after = before + bytes;
    int rc;
    if (!ps->active)
        return bytes ? DDNN_ERR_STATE : DDNN_OK;
    if (after > push + pull)
        return DDNN_ERR_STATE; /* more than this buffer's exchange with the peer */
    ps->received[peer] = after;
    /* The push comes first on the stream, then the pull. */
    if (push && before < push && after >= push)
    {
        ps->pushes_left--;
        if (ps->cb.received && (rc = ps->cb.received(ps->ctx, peer, STEP_PUSH, r, push)) < 0)
            return rc;
    }
    if (pull && before < push + pull && after == push + pull)
    {
        ps->pulls_left--;
        if (ps->cb.received && (rc = ps->cb.received(ps->ctx, peer, STEP_PULL, peer, pull)) < 0)
            return rc;
    }
    return advance(ps);
}

static int
ps_active(const void* state)
{
    return ((const ps_state*)state)->active;
}

static void
ps_describe(const void* state, char* out, size_t size)
{
    const ps_state* ps = state;
    snprintf(out,
             size,
             "%" PRIu32 " pushes and %" PRIu32 " updates still to arrive%s",
             ps->pushes_left,
             ps->pulls_left,
             is_server(&ps->cfg, ps->cfg.rank) && !ps->aggregated ? ", shard not updated" : "");
}

const ddnn_collective_ops ddnn_parameter_server_ops = {
    "parameter-server",
    "parameter servers on workers 0..P-1: push each shard to its server, pull it back updated",
    ps_peers,
    ps_peers,
    ps_bytes_sent_by,
    ps_sequential_steps,
    ps_create,
    ps_destroy,
    ps_start,
    ps_on_received,
    ps_active,
    ps_describe,
};
