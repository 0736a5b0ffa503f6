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
    ddnn_collective_config cfg; /* servers resolved: co-located 1..N, dedicated >= 1 */
    ddnn_collective_callbacks cb;
    void* ctx;
    uint32_t ranks; /* workers, plus the servers when dedicated */
    uint64_t buffer_bytes;
    uint64_t* received;   /* [ranks] bytes from each rank in this buffer */
    uint32_t* workers;    /* [N] 0..N-1: the group a distribution goes to */
    uint32_t pushes_left; /* (server) workers whose push has not fully arrived */
    uint32_t pulls_left;  /* (worker) servers whose update has not fully arrived */
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

uint32_t
ddnn_ps_server_rank(const ddnn_collective_config* cfg, uint32_t shard)
{
    return cfg->dedicated ? cfg->workers + shard : shard;
}

static int
is_worker(const ddnn_collective_config* cfg, uint32_t rank)
{
    return rank < cfg->workers;
}

static int
is_server(const ddnn_collective_config* cfg, uint32_t rank)
{
    return cfg->dedicated ? rank >= cfg->workers && rank - cfg->workers < servers_of(cfg)
                          : rank < servers_of(cfg);
}

/* The shard server `rank` holds. */
static uint32_t
shard_of(const ddnn_collective_config* cfg, uint32_t rank)
{
    return cfg->dedicated ? rank - cfg->workers : rank;
}

/* Push bytes rank `from` sends to rank `to` (a worker's gradients of the server's shard). */
static uint64_t
push_bytes(const ps_state* ps, uint32_t from, uint32_t to)
{
    return from != to && is_worker(&ps->cfg, from) && is_server(&ps->cfg, to)
               ? ddnn_ps_shard_bytes(ps->buffer_bytes, ps->cfg.servers, shard_of(&ps->cfg, to))
               : 0;
}

/* Pull bytes rank `from` sends to rank `to` (the server's updated shard, to a worker). */
static uint64_t
pull_bytes(const ps_state* ps, uint32_t from, uint32_t to)
{
    return from != to && is_server(&ps->cfg, from) && is_worker(&ps->cfg, to)
               ? ddnn_ps_shard_bytes(ps->buffer_bytes, ps->cfg.servers, shard_of(&ps->cfg, from))
               : 0;
}

/* A server exchanges with every worker; a worker with every server (co-located, a server that
 * is also a worker does both). */
static uint32_t
ps_peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    const uint32_t ranks = ddnn_collective_ranks(cfg);
    uint32_t j, n = 0;
    for (j = 0; j < ranks; j++)
        if (j != cfg->rank
            && ((is_server(cfg, cfg->rank) && is_worker(cfg, j))
                || (is_worker(cfg, cfg->rank) && is_server(cfg, j))))
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
    if (is_worker(cfg, cfg->rank))
        for (k = 0; k < servers; k++)
            if (ddnn_ps_server_rank(cfg, k) != cfg->rank)
                bytes += ddnn_ps_shard_bytes(buffer_bytes, servers, k);
    if (is_server(cfg, cfg->rank))
        bytes += (uint64_t)(cfg->group_distribution ? 1 : cfg->workers - is_worker(cfg, cfg->rank))
                 * ddnn_ps_shard_bytes(buffer_bytes, servers, shard_of(cfg, cfg->rank));
    return bytes;
}

/* A push, then the pull it completes. */
static uint32_t
ps_sequential_steps(const ddnn_collective_config* cfg)
{
    (void)cfg;
    return 2;
}

/* Step 0 pushes, step 1 pulls. */
static ddnn_collective_phase
ps_phase_of_step(const ddnn_collective_config* cfg, uint32_t step)
{
    (void)cfg;
    return step == 0 ? DDNN_PHASE_AGGREGATION : DDNN_PHASE_DISTRIBUTION;
}

static int
ps_create(void** state,
          const ddnn_collective_config* cfg,
          const ddnn_collective_callbacks* cb,
          void* ctx)
{
    ps_state* ps;
    if (cfg->workers < 2 || cfg->dedicated > 1
        || (cfg->dedicated ? cfg->servers == 0 || cfg->workers > UINT32_MAX - cfg->servers
                           : cfg->servers > cfg->workers)
        || cfg->rank >= ddnn_collective_ranks(cfg))
        return DDNN_ERR_INVALID;
    ps = calloc(1, sizeof *ps);
    if (!ps)
        return DDNN_ERR_NOMEM;
    ps->ranks = ddnn_collective_ranks(cfg);
    ps->received = calloc(ps->ranks, sizeof *ps->received);
    ps->workers = calloc(cfg->workers, sizeof *ps->workers);
    if (!ps->received || !ps->workers)
    {
        free(ps->received);
        free(ps->workers);
        free(ps);
        return DDNN_ERR_NOMEM;
    }
    for (uint32_t w = 0; w < cfg->workers; w++)
        ps->workers[w] = w;
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
    free(ps->workers);
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
        if (ps->cfg.group_distribution)
        {
            /* One send of the update to the workers together (a dedicated server's pulls are
             * alike: every worker gets the whole shard). */
            const uint64_t bytes = pull_bytes(ps, r, 0);
            if (bytes
                && (rc = ps->cb.send_group(ps->ctx,
                                           ps->workers,
                                           ps->cfg.workers,
                                           STEP_PULL,
                                           shard_of(&ps->cfg, r),
                                           bytes))
                       < 0)
                return rc;
        }
        else
            for (j = 0; j < ps->ranks; j++)
            {
                uint64_t bytes = pull_bytes(ps, r, j);
                if (bytes
                    && (rc = ps->cb.send(ps->ctx, j, STEP_PULL, shard_of(&ps->cfg, r), bytes)) < 0)
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
    memset(ps->received, 0, ps->ranks * sizeof *ps->received);
    for (j = 0; j < ps->ranks; j++)
    {
        ps->pushes_left += push_bytes(ps, j, r) > 0;
        ps->pulls_left += pull_bytes(ps, j, r) > 0;
    }
    for (j = 0; j < ps->ranks; j++)
    {
        uint64_t bytes = push_bytes(ps, r, j);
        if (bytes && (rc = ps->cb.send(ps->ctx, j, STEP_PUSH, shard_of(&ps->cfg, j), bytes)) < 0)
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
        if (ps->cb.received
            && (rc = ps->cb.received(ps->ctx, peer, STEP_PUSH, shard_of(&ps->cfg, r), push)) < 0)
            return rc;
    }
    if (pull && before < push + pull && after == push + pull)
    {
        ps->pulls_left--;
        if (ps->cb.received
            && (rc = ps->cb.received(ps->ctx, peer, STEP_PULL, shard_of(&ps->cfg, peer), pull)) < 0)
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
    const uint32_t r = ps->cfg.rank;
    if (!is_worker(&ps->cfg, r))
    {
        snprintf(out,
                 size,
                 "server of shard %" PRIu32 ": %" PRIu32 " pushes still to arrive",
                 shard_of(&ps->cfg, r),
                 ps->pushes_left);
        return;
    }
    snprintf(out,
             size,
             "%" PRIu32 " pushes and %" PRIu32 " updates still to arrive%s",
             ps->pushes_left,
             ps->pulls_left,
             is_server(&ps->cfg, r) && !ps->aggregated ? ", shard not updated" : "");
}

const ddnn_collective_ops ddnn_parameter_server_ops = {
    .name = "parameter-server",
    .summary = "parameter servers on workers 0..P-1 or on P hosts of their own: push each shard "
               "to its server, pull it back updated",
    .dedicated_servers = 1,
    .group_distribution = 1,
    .send_peers = ps_peers,
    .receive_peers = ps_peers,
    .bytes_sent_by = ps_bytes_sent_by,
    .sequential_steps = ps_sequential_steps,
    .phase_of_step = ps_phase_of_step,
    .create = ps_create,
    .destroy = ps_destroy,
    .start = ps_start,
    .on_received = ps_on_received,
    .active = ps_active,
    .describe = ps_describe,
};
