/* SPDX-License-Identifier: GPL-2.0-only */
/* In-network aggregation: the switch's slot table (ddnn-aggregation.h). */
#include "ddnn-aggregation.h"

#include <stdlib.h>
#include <string.h>

/* One slot: the chunk it aggregates, who has contributed, and its last result. */
typedef struct
{
    uint32_t chunk;     /* the chunk being aggregated */
    uint32_t count;     /* contributions of it so far */
    uint32_t length;    /* its bytes (from the first contribution) */
    int64_t sum;        /* the values added so far */
    uint8_t* seen;      /* [workers] 1: contributed to chunk */
    int64_t done_chunk; /* the chunk last completed here, -1: none */
    uint32_t done_length;
    int64_t done_sum;
} agg_slot;

typedef struct
{
    int active;
    uint32_t workers;
    uint32_t slots;
    uint32_t chunk_bytes;
    agg_slot* slot;     /* [slots] */
    uint8_t* seen_bits; /* [slots * workers], the slots' seen arrays */
} agg_job;

struct ddnn_agg_switch
{
    uint64_t memory_bytes;
    ddnn_agg_switch_callbacks cb;
    void* ctx;
    agg_job jobs[DDNN_AGG_JOBS_MAX];
    ddnn_agg_switch_stats stats;
};

void
ddnn_agg_switch_callbacks_init(ddnn_agg_switch_callbacks* cb)
{
    memset(cb, 0, sizeof *cb);
}

int
ddnn_agg_switch_new(ddnn_agg_switch** out,
                    uint64_t memory_bytes,
                    const ddnn_agg_switch_callbacks* cb,
                    void* ctx)
{
    if (!out || !cb || !cb->send_result)
        return DDNN_ERR_INVALID;
    ddnn_agg_switch* s = calloc(1, sizeof *s);
    if (!s)
        return DDNN_ERR_NOMEM;
    s->memory_bytes = memory_bytes;
    s->cb = *cb;
    s->ctx = ctx;
    *out = s;
    return DDNN_OK;
}

static void
release(agg_job* j)
{
    free(j->slot);
    free(j->seen_bits);
    memset(j, 0, sizeof *j);
}

void
ddnn_agg_switch_free(ddnn_agg_switch* s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < DDNN_AGG_JOBS_MAX; i++)
        release(&s->jobs[i]);
    free(s);
}

uint32_t
ddnn_agg_switch_free_slots(const ddnn_agg_switch* s, uint32_t chunk_bytes)
{
    const uint64_t left = s->memory_bytes - s->stats.memory_bytes;
    const uint64_t slots = chunk_bytes ? left / chunk_bytes : 0;
    return slots > UINT32_MAX ? UINT32_MAX : (uint32_t)slots;
}

int
ddnn_agg_switch_add_job(
    ddnn_agg_switch* s, uint32_t job, uint32_t workers, uint32_t slots, uint32_t chunk_bytes)
{
    if (!s)
        return DDNN_ERR_INVALID;
    if (job >= DDNN_AGG_JOBS_MAX || workers < 2 || workers > DDNN_AGG_WORKERS_MAX || slots < 1
        || chunk_bytes < 1 || chunk_bytes > 65507)
        return DDNN_ERR_RANGE;
    agg_job* j = &s->jobs[job];
    if (j->active)
        return DDNN_ERR_DUPLICATE;
    if (slots > ddnn_agg_switch_free_slots(s, chunk_bytes))
        return DDNN_ERR_TOO_LARGE;
    j->slot = calloc(slots, sizeof *j->slot);
    j->seen_bits = calloc((size_t)slots * workers, 1);
    if (!j->slot || !j->seen_bits)
    {
        release(j);
        return DDNN_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < slots; k++)
    {
        j->slot[k].chunk = k;
        j->slot[k].seen = j->seen_bits + (size_t)k * workers;
        j->slot[k].done_chunk = -1;
    }
    j->active = 1;
    j->workers = workers;
    j->slots = slots;
    j->chunk_bytes = chunk_bytes;
    s->stats.memory_bytes += (uint64_t)slots * chunk_bytes;
    return DDNN_OK;
}

int
ddnn_agg_switch_remove_job(ddnn_agg_switch* s, uint32_t job)
{
    if (!s)
        return DDNN_ERR_INVALID;
    if (job >= DDNN_AGG_JOBS_MAX || !s->jobs[job].active)
        return DDNN_ERR_MISSING;
    s->stats.memory_bytes -= (uint64_t)s->jobs[job].slots * s->jobs[job].chunk_bytes;
    release(&s->jobs[job]);
    return DDNN_OK;
}

int
ddnn_agg_switch_on_contribution(ddnn_agg_switch* s, const ddnn_agg_chunk_message* c)
{
    if (!s || !c)
        return DDNN_ERR_INVALID;
    const uint32_t job = c->job, worker = c->worker, chunk = c->chunk, slot = c->slot;
    if (job >= DDNN_AGG_JOBS_MAX || !s->jobs[job].active)
        return DDNN_ERR_RANGE;
    agg_job* j = &s->jobs[job];
    if (worker >= j->workers || slot >= j->slots || chunk % j->slots != slot || c->length < 1
        || c->length > j->chunk_bytes)
        return DDNN_ERR_RANGE;
    agg_slot* k = &j->slot[slot];
    ddnn_agg_chunk_message result = *c;
    if ((int64_t)chunk == k->done_chunk)
    {
        /* A worker that lost the result sends its chunk again: the result again, to it. */
        s->stats.resent++;
        result.length = k->done_length;
        result.value = k->done_sum;
        return s->cb.send_result(s->ctx, &result);
    }
    if (chunk != k->chunk)
    {
        /* An older chunk whose result the worker already has (a late copy). A later chunk
         * cannot come: a worker sends chunk c + K only after the result of c. */
        s->stats.stale++;
        return DDNN_OK;
    }
    if (k->seen[worker])
    {
        s->stats.repeats++;
        return DDNN_OK;
    }
    k->seen[worker] = 1;
    k->count++;
    k->sum += c->value;
    k->length = c->length;
    s->stats.contributions++;
    if (k->count < j->workers)
        return DDNN_OK;
    /* Complete: keep the result for repeats, ready the slot for the next chunk. */
    k->done_chunk = chunk;
    k->done_length = k->length;
    k->done_sum = k->sum;
    k->chunk = chunk + j->slots;
    k->count = 0;
    k->sum = 0;
    memset(k->seen, 0, j->workers);
    s->stats.results++;
    result.worker = DDNN_AGG_ALL;
    result.length = k->done_length;
    result.value = k->done_sum;
    return s->cb.send_result(s->ctx, &result);
}

void
ddnn_agg_switch_get_stats(const ddnn_agg_switch* s, ddnn_agg_switch_stats* out)
{
    *out = s->stats;
}
