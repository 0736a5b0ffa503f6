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
    uint8_t* resent;   /* [slots] times the slot's chunk went again (no RTT sample when > 0) */
    int64_t srtt_ns;   /* smoothed round trip, 0: no sample yet */
    int64_t rttvar_ns; /* its mean deviation */
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
    else if (cfg->srtt_ns < 0 || cfg->srtt_ns > INT64_MAX / 8)
        bad = "srtt_ns";
    else if (cfg->rttvar_ns < 0 || cfg->rttvar_ns > INT64_MAX / 8)
        bad = "rttvar_ns";
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
    w->resent = calloc(w->cfg.slots, 1);
    w->srtt_ns = cfg->srtt_ns;
    w->rttvar_ns = cfg->rttvar_ns;
    if (!w->have || !w->sent_ns || !w->in_slot || !w->resent)
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
    free(w->resent);
    free(w);
}

/* Sends chunk `chunk` into its slot at now_ns. */
static int
send_chunk(ddnn_agg_worker* w, int64_t now_ns, uint32_t chunk, int retransmission)
{
    const uint32_t slot = chunk % w->cfg.slots;
    if (w->sent_ns[slot] < 0)
        w->stats.slots_in_use++;
    w->resent[slot] = retransmission ? (uint8_t)(w->resent[slot] + (w->resent[slot] < 255)) : 0;
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

/* How long a chunk waits for its result before it goes again: the round-trip estimate
 * srtt + max(4 rttvar, srtt / 4) (the quarter keeps a steady round trip from timing out on
 * itself once rttvar decays), never below retransmit_ns. */
static int64_t
timeout_ns(const ddnn_agg_worker* w)
{
    const int64_t spread = 4 * w->rttvar_ns > w->srtt_ns / 4 ? 4 * w->rttvar_ns : w->srtt_ns / 4;
    const int64_t estimate = w->srtt_ns + spread;
    return estimate > w->cfg.retransmit_ns ? estimate : w->cfg.retransmit_ns;
}

/* A round trip of `sample_ns` into the estimate (RFC 6298's gains, 1/8 and 1/4). */
static void
add_rtt_sample(ddnn_agg_worker* w, int64_t sample_ns)
{
    if (w->srtt_ns == 0)
    {
        w->srtt_ns = sample_ns > 0 ? sample_ns : 1;
        w->rttvar_ns = sample_ns / 2;
        return;
    }
    const int64_t error = w->srtt_ns > sample_ns ? w->srtt_ns - sample_ns : sample_ns - w->srtt_ns;
    w->rttvar_ns = (3 * w->rttvar_ns + error) / 4;
    w->srtt_ns = (7 * w->srtt_ns + sample_ns) / 8;
    if (w->srtt_ns < 1)
        w->srtt_ns = 1;
}

/* Slot k's wait: the timeout, doubled for each time its chunk already went again (at most
 * 64 times), as TCP backs off: a slot held up by a slow worker is not flooded. */
static int64_t
slot_timeout_ns(const ddnn_agg_worker* w, int64_t timeout, uint32_t k)
{
    const unsigned doublings = w->resent[k] < 6 ? w->resent[k] : 6;
    return timeout > (INT64_MAX >> doublings) ? INT64_MAX : timeout << doublings;
}

/* The earliest retransmission due, or DDNN_AGG_NEVER with nothing out. */
static int64_t
next_wake(const ddnn_agg_worker* w)
{
    const int64_t timeout = timeout_ns(w);
    int64_t next = DDNN_AGG_NEVER;
    for (uint32_t k = 0; k < w->cfg.slots; k++)
    {
        const int64_t wait = slot_timeout_ns(w, timeout, k);
        if (w->sent_ns[k] >= 0 && wait < next - w->sent_ns[k])
            next = w->sent_ns[k] + wait;
    }
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
            /* Karn: only a chunk sent once tells how long a round trip takes. */
            if (!w->resent[slot] && now_ns >= w->sent_ns[slot])
                add_rtt_sample(w, now_ns - w->sent_ns[slot]);
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
    const int64_t timeout = timeout_ns(w);
    for (uint32_t k = 0; k < w->cfg.slots; k++)
        if (w->sent_ns[k] >= 0 && now_ns - w->sent_ns[k] >= slot_timeout_ns(w, timeout, k))
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
ddnn_agg_worker_get_rtt(const ddnn_agg_worker* w, int64_t* srtt_ns, int64_t* rttvar_ns)
{
    *srtt_ns = w->srtt_ns;
    *rttvar_ns = w->rttvar_ns;
}

void
ddnn_agg_worker_get_stats(const ddnn_agg_worker* w, ddnn_agg_worker_stats* out)
{
    *out = w->stats;
}
