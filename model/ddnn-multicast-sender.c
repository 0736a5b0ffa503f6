/* SPDX-License-Identifier: GPL-2.0-only */
/* The reliable multicast transport's sender (ddnn-multicast.h). */
#include "ddnn-multicast.h"

#include <stdlib.h>
#include <string.h>

struct ddnn_mcast_sender
{
    ddnn_mcast_config cfg;
    ddnn_mcast_sender_callbacks cb;
    void* ctx;
    uint32_t packets;
    int started;
    int complete;
    uint32_t next_original;  /* the next packet never sent */
    int64_t next_send_ns;    /* the pace: no packet leaves before this */
    int64_t last_send_ns;    /* the latest packet's departure (probe timer) */
    uint32_t* repair_queue;  /* FIFO ring of packets to repair, each at most once */
    uint32_t repair_head;    /* index of the oldest */
    uint32_t repair_count;   /* packets queued */
    uint8_t* queued;         /* [packets] 1: in repair_queue */
    int64_t* last_repair_ns; /* [packets] last repair's departure, -1: never */
    uint8_t* done;           /* [receivers] 1: said DONE */
    ddnn_mcast_sender_stats stats;
};

void
ddnn_mcast_sender_callbacks_init(ddnn_mcast_sender_callbacks* cb)
{
    memset(cb, 0, sizeof *cb);
}

int
ddnn_mcast_sender_new(ddnn_mcast_sender** out,
                      const ddnn_mcast_config* cfg,
                      const ddnn_mcast_sender_callbacks* cb,
                      void* ctx)
{
    if (!out || !cfg || !cb || !cb->send_data)
        return DDNN_ERR_INVALID;
    *out = NULL;
    int rc = ddnn_mcast_config_check(cfg, NULL);
    if (rc != DDNN_OK)
        return rc;
    ddnn_mcast_sender* s = calloc(1, sizeof *s);
    if (!s)
        return DDNN_ERR_NOMEM;
    s->cfg = *cfg;
    s->cb = *cb;
    s->ctx = ctx;
    s->packets = ddnn_mcast_packets(cfg);
    s->repair_queue = malloc(sizeof *s->repair_queue * s->packets);
    s->queued = calloc(s->packets, 1);
    s->last_repair_ns = malloc(sizeof *s->last_repair_ns * s->packets);
    s->done = calloc(cfg->receivers, 1);
    if (!s->repair_queue || !s->queued || !s->last_repair_ns || !s->done)
    {
        ddnn_mcast_sender_free(s);
        return DDNN_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < s->packets; i++)
        s->last_repair_ns[i] = -1;
    *out = s;
    return DDNN_OK;
}

void
ddnn_mcast_sender_free(ddnn_mcast_sender* s)
{
    if (!s)
        return;
    free(s->repair_queue);
    free(s->queued);
    free(s->last_repair_ns);
    free(s->done);
    free(s);
}

/* Nanoseconds packet `seq` takes at the pace (at least 1, so that time always moves). */
static int64_t
pace_ns(const ddnn_mcast_sender* s, uint32_t seq)
{
    const double bits = 8.0 * (ddnn_mcast_packet_length(&s->cfg, seq) + s->cfg.overhead_bytes);
    const int64_t ns = (int64_t)(bits * 1e9 / (double)s->cfg.rate_bps);
    return ns > 0 ? ns : 1;
}

static int
has_work(const ddnn_mcast_sender* s)
{
    return s->repair_count > 0 || s->next_original < s->packets;
}

static void
enqueue_repair(ddnn_mcast_sender* s, uint32_t seq)
{
    s->repair_queue[(s->repair_head + s->repair_count) % s->packets] = seq;
    s->repair_count++;
    s->queued[seq] = 1;
}

enum packet_kind
{
    ORIGINAL,
    REPAIR,
    PROBE
};

static int
send_packet(ddnn_mcast_sender* s, int64_t now_ns, uint32_t seq, enum packet_kind kind)
{
    const uint32_t length = ddnn_mcast_packet_length(&s->cfg, seq);
    if (s->next_send_ns < now_ns)
        s->next_send_ns = now_ns; /* idle until now: no burst for the time gone by */
    s->next_send_ns += pace_ns(s, seq);
    s->last_send_ns = now_ns;
    s->stats.bytes += length;
    if (kind == ORIGINAL)
        s->stats.originals++;
    else if (kind == REPAIR)
    {
        s->stats.repairs++;
        s->last_repair_ns[seq] = now_ns;
    }
    else
        s->stats.probes++;
    return s->cb.send_data(
        s->ctx, seq, (uint64_t)seq * s->cfg.packet_bytes, length, kind != ORIGINAL);
}

/* Sends what the pace allows at now_ns, probes a silent tail, and says when to come back. */
static int
run(ddnn_mcast_sender* s, int64_t now_ns, int64_t* next_ns)
{
    *next_ns = DDNN_MCAST_NEVER;
    if (s->complete)
        return DDNN_OK;
    while (has_work(s) && s->next_send_ns <= now_ns)
    {
        int rc;
        if (s->repair_count > 0)
        {
            /* Repairs first: receivers wait on them, while new packets only add to the end. */
            const uint32_t seq = s->repair_queue[s->repair_head];
            s->repair_head = (s->repair_head + 1) % s->packets;
            s->repair_count--;
            s->queued[seq] = 0;
            rc = send_packet(s, now_ns, seq, REPAIR);
        }
        else
            rc = send_packet(s, now_ns, s->next_original++, ORIGINAL);
        if (rc != DDNN_OK)
            return rc;
    }
    if (!has_work(s) && now_ns - s->last_send_ns >= s->cfg.probe_ns)
    {
        /* Nothing left, yet someone is silent: the last packet again shows a receiver that
         * lost the tail its gap, or draws a DONE that was lost. */
        int rc = send_packet(s, now_ns, s->packets - 1, PROBE);
        if (rc != DDNN_OK)
            return rc;
    }
    *next_ns = has_work(s) ? s->next_send_ns : s->last_send_ns + s->cfg.probe_ns;
    return DDNN_OK;
}

int
ddnn_mcast_sender_start(ddnn_mcast_sender* s, int64_t now_ns, int64_t* next_ns)
{
    if (!s || !next_ns)
        return DDNN_ERR_INVALID;
    if (s->started)
        return DDNN_ERR_STATE;
    s->started = 1;
    s->next_send_ns = now_ns;
    s->last_send_ns = now_ns;
    return run(s, now_ns, next_ns);
}

int
ddnn_mcast_sender_wake(ddnn_mcast_sender* s, int64_t now_ns, int64_t* next_ns)
{
    if (!s || !next_ns)
        return DDNN_ERR_INVALID;
    if (!s->started)
        return DDNN_ERR_STATE;
    return run(s, now_ns, next_ns);
}

int
ddnn_mcast_sender_on_nack(ddnn_mcast_sender* s,
                          int64_t now_ns,
                          uint32_t receiver,
                          uint32_t first,
                          uint32_t count,
                          int64_t* next_ns)
{
    if (!s || !next_ns)
        return DDNN_ERR_INVALID;
    if (!s->started)
        return DDNN_ERR_STATE;
    if (receiver >= s->cfg.receivers || count < 1 || first >= s->packets
        || count > s->packets - first)
        return DDNN_ERR_RANGE;
    s->stats.nacks++;
    if (!s->complete)
    {
        for (uint32_t seq = first; seq < first + count; seq++)
        {
            /* Not sent yet (it comes anyway), queued, or repaired so recently that this NACK
             * may have crossed the repair: nothing to add. */
            if (seq >= s->next_original || s->queued[seq])
                continue;
            if (s->last_repair_ns[seq] >= 0
                && now_ns - s->last_repair_ns[seq] < s->cfg.repair_holdoff_ns)
                continue;
            enqueue_repair(s, seq);
        }
    }
    return run(s, now_ns, next_ns);
}

int
ddnn_mcast_sender_on_done(ddnn_mcast_sender* s, int64_t now_ns, uint32_t receiver, int64_t* next_ns)
{
    if (!s || !next_ns)
        return DDNN_ERR_INVALID;
    if (!s->started)
        return DDNN_ERR_STATE;
    if (receiver >= s->cfg.receivers)
        return DDNN_ERR_RANGE;
    if (!s->done[receiver] && !s->complete)
    {
        s->done[receiver] = 1;
        s->stats.receivers_done++;
        if (s->stats.receivers_done == s->cfg.receivers)
        {
            s->complete = 1;
            s->repair_count = 0;
            if (s->cb.complete)
            {
                int rc = s->cb.complete(s->ctx);
                if (rc != DDNN_OK)
                    return rc;
            }
        }
    }
    return run(s, now_ns, next_ns);
}

int
ddnn_mcast_sender_complete(const ddnn_mcast_sender* s)
{
    return s && s->complete;
}

void
ddnn_mcast_sender_get_stats(const ddnn_mcast_sender* s, ddnn_mcast_sender_stats* out)
{
    *out = s->stats;
}
