/* SPDX-License-Identifier: GPL-2.0-only */
/* In-network aggregation: a worker's slot pool (ddnn-aggregation.h). */
#include "ddnn-aggregation.h"

#include <stdlib.h>
#include <string.h>

struct ddnn_agg_worker
{
    ddnn_agg_worker_config cfg;
    ddnn_agg_worker_callbacks cb;
    void* ctx;
    uint32_t chunks;
    int started;
    int complete;
    uint8_t* have;     /* [chunks] 1: its result is in */
    uint32_t results;  /* chunks whose result is in */
    int64_t* sent_ns;  /* [slots] when the slot's chunk was last sent, -1: the slot is idle */
    uint32_t* in_slot; /* [slots] the chunk out in the slot */
    ddnn_agg_worker_stats stats;
};

int
ddnn_agg_worker_config_check(const ddnn_agg_worker_config* cfg, const char** field)
{
    const char* bad = NULL;
    if (cfg->bytes < 1)
        bad = "bytes";
    else if (cfg->chunk_bytes < 1 || cfg->chunk_bytes > 65507)
        bad = "chunk_bytes";
    else if ((cfg->bytes - 1) / cfg->chunk_bytes + 1 > 0x7fffffffu)
        bad = "bytes";
    else if (cfg->slots < 1)
        bad = "slots";
    else if (cfg->retransmit_ns < 1)
        bad = "retransmit_ns";
    if (field)
        *field = bad;
    return bad ? DDNN_ERR_RANGE : DDNN_OK;
}

uint32_t
ddnn_agg_chunks(const ddnn_agg_worker_config* cfg)
{
    return (uint32_t)((cfg->bytes - 1) / cfg->chunk_bytes + 1);
}

uint32_t
ddnn_agg_chunk_length(const ddnn_agg_worker_config* cfg, uint32_t chunk)
{
    const uint64_t left = cfg->bytes - (uint64_t)chunk * cfg->chunk_bytes;
    return left < cfg->chunk_bytes ? (uint32_t)left : cfg->chunk_bytes;
}

void
ddnn_agg_worker_callbacks_init(ddnn_agg_worker_callbacks* cb)
{
    memset(cb, 0, sizeof *cb);
}

int
ddnn_agg_worker_new(ddnn_agg_worker** out,
                    const ddnn_agg_worker_config* cfg,
                    const ddnn_agg_worker_callbacks* cb,
                    void* ctx)
{
    if (!out || !cfg || !cb || !cb->send_chunk)
        return DDNN_ERR_INVALID;
    *out = NULL;
    int rc = ddnn_agg_worker_config_check(cfg, NULL);
    if (rc != DDNN_OK)
        return rc;
    ddnn_agg_worker* w = calloc(1, sizeof *w);
    if (!w)
        return DDNN_ERR_NOMEM;
    w->cfg = *cfg;
    w->cb = *cb;
    w->ctx = ctx;
    w->chunks = ddnn_agg_chunks(cfg);
    /* A pool larger than the gradient's chunks leaves the rest of the slots idle. */
    if (w->cfg.slots > w->chunks)
        w->cfg.slots = w->chunks;
    w->have = calloc(w->chunks, 1);
    w->sent_ns = malloc(sizeof *w->sent_ns * w->cfg.slots);
    w->in_slot = calloc(w->cfg.slots, sizeof *w->in_slot);
    if (!w->have || !w->sent_ns || !w->in_slot)
    {
        ddnn_agg_worker_free(w);
        return DDNN_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < w->cfg.slots; k++)
        w->sent_ns[k] = -1;
    *out = w;
    return DDNN_OK;
}

void
ddnn_agg_worker_free(ddnn_agg_worker* w)
{
    if (!w)
        return;
    free(w->have);
    free(w->sent_ns);
    free(w->in_slot);
    free(w);
}

/* Sends chunk `chunk` into its slot at now_ns. */
static int
send_chunk(ddnn_agg_worker* w, int64_t now_ns, uint32_t chunk, int retransmission)
{
    const uint32_t slot = chunk % w->cfg.slots;
    if (w->sent_ns[slot] < 0)
        w->stats.slots_in_use++;
    w->sent_ns[slot] = now_ns;
    w->in_slot[slot] = chunk;
    if (retransmission)
        w->stats.retransmissions++;
    else
        w->stats.chunks++;
    return w->cb.send_chunk(w->ctx,
                            chunk,
                            slot,
                            (uint64_t)chunk * w->cfg.chunk_bytes,
                            ddnn_agg_chunk_length(&w->cfg, chunk),
                            retransmission);
}

/* The earliest retransmission due, or DDNN_AGG_NEVER with nothing out. */
static int64_t
next_wake(const ddnn_agg_worker* w)
{
    int64_t next = DDNN_AGG_NEVER;
    for (uint32_t k = 0; k < w->cfg.slots; k++)
        if (w->sent_ns[k] >= 0 && w->sent_ns[k] + w->cfg.retransmit_ns < next)
            next = w->sent_ns[k] + w->cfg.retransmit_ns;
    return next;
}

int
ddnn_agg_worker_start(ddnn_agg_worker* w, int64_t now_ns, int64_t* next_ns)
{
    if (!w || !next_ns)
        return DDNN_ERR_INVALID;
    if (w->started)
        return DDNN_ERR_STATE;
    w->started = 1;
    for (uint32_t c = 0; c < w->cfg.slots; c++)
    {
        int rc = send_chunk(w, now_ns, c, 0);
        if (rc != DDNN_OK)
            return rc;
    }
    *next_ns = next_wake(w);
    return DDNN_OK;
}

int
ddnn_agg_worker_on_result(
    ddnn_agg_worker* w, int64_t now_ns, uint32_t chunk, uint32_t length, int64_t* next_ns)
{
    if (!w || !next_ns)
        return DDNN_ERR_INVALID;
    if (!w->started)
        return DDNN_ERR_STATE;
    if (chunk >= w->chunks || length != ddnn_agg_chunk_length(&w->cfg, chunk))
        return DDNN_ERR_RANGE;
    int rc = DDNN_OK;
    if (w->have[chunk])
        w->stats.duplicates++;
    else
    {
        const uint32_t slot = chunk % w->cfg.slots;
        w->have[chunk] = 1;
        w->results++;
        w->stats.results++;
        w->stats.bytes += length;
        if (w->sent_ns[slot] >= 0 && w->in_slot[slot] == chunk)
        {
            /* The slot is free: the next chunk that maps to it, if any. */
            w->sent_ns[slot] = -1;
            w->stats.slots_in_use--;
            if ((uint64_t)chunk + w->cfg.slots < w->chunks)
                rc = send_chunk(w, now_ns, chunk + w->cfg.slots, 0);
        }
        if (rc == DDNN_OK && w->results == w->chunks)
        {
            w->complete = 1;
            if (w->cb.complete)
                rc = w->cb.complete(w->ctx);
        }
    }
    *next_ns = next_wake(w);
    return rc;
}

int
ddnn_agg_worker_wake(ddnn_agg_worker* w, int64_t now_ns, int64_t* next_ns)
{
    if (!w || !next_ns)
        return DDNN_ERR_INVALID;
    for (uint32_t k = 0; k < w->cfg.slots; k++)
        if (w->sent_ns[k] >= 0 && now_ns - w->sent_ns[k] >= w->cfg.retransmit_ns)
        {
            int rc = send_chunk(w, now_ns, w->in_slot[k], 1);
            if (rc != DDNN_OK)
                return rc;
        }
    *next_ns = next_wake(w);
    return DDNN_OK;
}

int
ddnn_agg_worker_complete(const ddnn_agg_worker* w)
{
    return w && w->complete;
}

void
ddnn_agg_worker_get_stats(const ddnn_agg_worker* w, ddnn_agg_worker_stats* out)
{
    *out = w->stats;
}
