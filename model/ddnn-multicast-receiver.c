/* SPDX-License-Identifier: GPL-2.0-only */
/* The reliable multicast transport's receiver (ddnn-multicast.h). */
#include "ddnn-multicast.h"

#include <stdlib.h>
#include <string.h>

struct ddnn_mcast_receiver
{
    ddnn_mcast_config cfg;
    ddnn_mcast_receiver_callbacks cb;
    void* ctx;
    uint32_t packets;
    uint8_t* have;          /* [packets] 1: received */
    uint32_t first_missing; /* every packet below it is here */
    int64_t highest;        /* the highest packet received, -1: none */
    int64_t nack_at_ns;     /* the next NACK round, DDNN_MCAST_NEVER: no gap */
    int64_t done_at_ns;     /* when DONE was last sent, -1: never */
    int complete;
    ddnn_mcast_receiver_stats stats;
};

void
ddnn_mcast_receiver_callbacks_init(ddnn_mcast_receiver_callbacks* cb)
{
    memset(cb, 0, sizeof *cb);
}

int
ddnn_mcast_receiver_new(ddnn_mcast_receiver** out,
                        const ddnn_mcast_config* cfg,
                        const ddnn_mcast_receiver_callbacks* cb,
                        void* ctx)
{
    if (!out || !cfg || !cb || !cb->send_nack || !cb->send_done)
        return DDNN_ERR_INVALID;
    *out = NULL;
    int rc = ddnn_mcast_config_check(cfg, NULL);
    if (rc != DDNN_OK)
        return rc;
    ddnn_mcast_receiver* r = calloc(1, sizeof *r);
    if (!r)
        return DDNN_ERR_NOMEM;
    r->cfg = *cfg;
    r->cb = *cb;
    r->ctx = ctx;
    r->packets = ddnn_mcast_packets(cfg);
    r->have = calloc(r->packets, 1);
    if (!r->have)
    {
        free(r);
        return DDNN_ERR_NOMEM;
    }
    r->highest = -1;
    r->nack_at_ns = DDNN_MCAST_NEVER;
    r->done_at_ns = -1;
    *out = r;
    return DDNN_OK;
}

void
ddnn_mcast_receiver_free(ddnn_mcast_receiver* r)
{
    if (!r)
        return;
    free(r->have);
    free(r);
}

static int
send_done(ddnn_mcast_receiver* r, int64_t now_ns)
{
    r->done_at_ns = now_ns;
    return r->cb.send_done(r->ctx);
}

/* One NACK round: every missing range below the highest packet, lowest first, at most
 * DDNN_MCAST_NACK_RANGES of them (the rest in the next round). */
static int
send_nacks(ddnn_mcast_receiver* r)
{
    uint32_t ranges = 0;
    uint32_t seq = r->first_missing;
    while (seq < (uint64_t)r->highest && ranges < DDNN_MCAST_NACK_RANGES)
    {
        if (r->have[seq])
        {
            seq++;
            continue;
        }
        const uint32_t first = seq;
        while (seq < (uint64_t)r->highest && !r->have[seq])
            seq++;
        ranges++;
        r->stats.nacks++;
        int rc = r->cb.send_nack(r->ctx, first, seq - first);
        if (rc != DDNN_OK)
            return rc;
    }
    return DDNN_OK;
}

int
ddnn_mcast_receiver_on_data(
    ddnn_mcast_receiver* r, int64_t now_ns, uint32_t seq, uint32_t length, int64_t* next_ns)
{
    if (!r || !next_ns)
        return DDNN_ERR_INVALID;
    if (seq >= r->packets || length != ddnn_mcast_packet_length(&r->cfg, seq))
        return DDNN_ERR_RANGE;
    int rc = DDNN_OK;
    if (r->have[seq])
    {
        r->stats.duplicates++;
        /* Data after DONE: the sender may not have heard it (a probe, or a repair for
         * another receiver); say it again, once per NACK interval at most. */
        if (r->complete && now_ns - r->done_at_ns >= r->cfg.nack_interval_ns)
            rc = send_done(r, now_ns);
    }
    else
    {
        r->have[seq] = 1;
        r->stats.packets++;
        r->stats.bytes += length;
        if ((int64_t)seq > r->highest)
            r->highest = seq;
        while (r->first_missing < r->packets && r->have[r->first_missing])
            r->first_missing++;
        if (r->first_missing == r->packets)
        {
            r->complete = 1;
            r->nack_at_ns = DDNN_MCAST_NEVER;
            rc = send_done(r, now_ns);
            if (rc == DDNN_OK && r->cb.complete)
                rc = r->cb.complete(r->ctx);
        }
        else if ((int64_t)r->first_missing < r->highest && r->nack_at_ns == DDNN_MCAST_NEVER)
            r->nack_at_ns = now_ns + r->cfg.nack_delay_ns; /* a gap: late, or lost? */
        else if ((int64_t)r->first_missing >= r->highest)
            r->nack_at_ns = DDNN_MCAST_NEVER; /* the gap filled */
    }
    *next_ns = r->nack_at_ns;
    return rc;
}

int
ddnn_mcast_receiver_wake(ddnn_mcast_receiver* r, int64_t now_ns, int64_t* next_ns)
{
    if (!r || !next_ns)
        return DDNN_ERR_INVALID;
    int rc = DDNN_OK;
    if (!r->complete && now_ns >= r->nack_at_ns)
    {
        rc = send_nacks(r);
        r->nack_at_ns = now_ns + r->cfg.nack_interval_ns;
    }
    *next_ns = r->nack_at_ns;
    return rc;
}

int
ddnn_mcast_receiver_complete(const ddnn_mcast_receiver* r)
{
    return r && r->complete;
}

void
ddnn_mcast_receiver_get_stats(const ddnn_mcast_receiver* r, ddnn_mcast_receiver_stats* out)
{
    *out = r->stats;
}
