/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-syncer.h"

#include "ddnn-array.h"

#include <stdlib.h>
#include <string.h>

/* A buffer waiting to start: ready on `ready` workers so far. */
typedef struct
{
    uint32_t iteration;
    uint32_t buffer;
    uint32_t ready;
    uint64_t ready_ns;  /* when the last worker reported it */
    uint64_t ready_seq; /* FIFO order: when it became ready everywhere */
} entry;

struct ddnn_syncer
{
    ddnn_syncer_callbacks cb;
    void* ctx;
    uint32_t workers, buffers;
    uint32_t* buffer_lowest;
    ddnn_queue_policy policy;

    entry* queue; /* unordered; short (at most a few iterations' buffers) */
    size_t queued, queue_cap;
    uint64_t seq;

    int in_flight;
    size_t flight_record; /* index into records */
    unsigned char* done;  /* [workers] for the buffer in flight */
    uint32_t done_count;

    ddnn_syncer_record* records;
    size_t record_count, record_cap;
};

void
ddnn_syncer_callbacks_init(ddnn_syncer_callbacks* cb)
{
    *cb = (ddnn_syncer_callbacks){0}; /* a null pointer per callback */
}

int
ddnn_syncer_new(ddnn_syncer** out,
                const ddnn_syncer_config* cfg,
                const ddnn_syncer_callbacks* cb,
                void* ctx)
{
    ddnn_syncer* s;
    if (!out || !cfg || !cb || !cb->start || !cb->finished || cfg->workers < 1 || cfg->buffers < 1
        || !cfg->buffer_lowest
        || (cfg->policy != DDNN_QUEUE_FIFO && cfg->policy != DDNN_QUEUE_PRIORITY))
        return DDNN_ERR_INVALID;
    s = calloc(1, sizeof *s);
    if (!s)
        return DDNN_ERR_NOMEM;
    s->buffer_lowest = malloc(cfg->buffers * sizeof *s->buffer_lowest);
    s->done = calloc(cfg->workers, 1);
    if (!s->buffer_lowest || !s->done)
    {
        ddnn_syncer_free(s);
        return DDNN_ERR_NOMEM;
    }
    memcpy(s->buffer_lowest, cfg->buffer_lowest, cfg->buffers * sizeof *s->buffer_lowest);
    s->cb = *cb;
    s->ctx = ctx;
    s->workers = cfg->workers;
    s->buffers = cfg->buffers;
    s->policy = cfg->policy;
    *out = s;
    return DDNN_OK;
}

void
ddnn_syncer_free(ddnn_syncer* s)
{
    if (s)
    {
        free(s->buffer_lowest);
        free(s->done);
        free(s->queue);
        free(s->records);
        free(s);
    }
}

/* Whether queued entry a should go before b under the policy. */
static int
goes_before(const ddnn_syncer* s, const entry* a, const entry* b)
{
    if (s->policy == DDNN_QUEUE_FIFO)
        return a->ready_seq < b->ready_seq;
    if (a->iteration != b->iteration)
        return a->iteration < b->iteration;
    return s->buffer_lowest[a->buffer] < s->buffer_lowest[b->buffer];
}

/* Starts the best buffer that is ready everywhere, if none is in flight. */
static int
start_next(ddnn_syncer* s, uint64_t now_ns)
{
    size_t i, best = s->queued;
    entry chosen;
    ddnn_syncer_record* rec;
    if (s->in_flight)
        return DDNN_OK;
    for (i = 0; i < s->queued; i++)
        if (s->queue[i].ready == s->workers
            && (best == s->queued || goes_before(s, &s->queue[i], &s->queue[best])))
            best = i;
    if (best == s->queued)
        return DDNN_OK;
    chosen = s->queue[best];
    s->queue[best] = s->queue[--s->queued];
    if (DDNN_ARRAY_RESERVE(s->records, s->record_cap, s->record_count + 1) != DDNN_OK)
        return DDNN_ERR_NOMEM;
    rec = &s->records[s->record_count];
    rec->iteration = chosen.iteration;
    rec->buffer = chosen.buffer;
    rec->ready_ns = chosen.ready_ns;
    rec->start_ns = now_ns;
    rec->end_ns = 0;
    s->flight_record = s->record_count++;
    s->in_flight = 1;
    s->done_count = 0;
    memset(s->done, 0, s->workers);
    return s->cb.start(s->ctx, chosen.iteration, chosen.buffer);
}

int
ddnn_syncer_on_ready(
    ddnn_syncer* s, uint32_t worker, uint32_t iteration, uint32_t buffer, uint64_t now_ns)
{
    size_t i;
    entry* e = NULL;
    if (!s || worker >= s->workers || buffer >= s->buffers)
        return DDNN_ERR_INVALID;
    for (i = 0; i < s->queued; i++)
        if (s->queue[i].iteration == iteration && s->queue[i].buffer == buffer)
            e = &s->queue[i];
    if (!e)
    {
        if (DDNN_ARRAY_RESERVE(s->queue, s->queue_cap, s->queued + 1) != DDNN_OK)
            return DDNN_ERR_NOMEM;
        e = &s->queue[s->queued++];
        memset(e, 0, sizeof *e);
        e->iteration = iteration;
        e->buffer = buffer;
    }
    if (e->ready >= s->workers)
        return DDNN_ERR_STATE; /* more reports than workers */
    if (++e->ready == s->workers)
    {
        e->ready_ns = now_ns;
        e->ready_seq = s->seq++;
    }
    return start_next(s, now_ns);
}

int
ddnn_syncer_on_done(ddnn_syncer* s, uint32_t worker, uint64_t now_ns)
{
    ddnn_syncer_record* rec;
    if (!s || worker >= s->workers)
        return DDNN_ERR_INVALID;
    if (!s->in_flight || s->done[worker])
        return DDNN_ERR_STATE;
    s->done[worker] = 1;
    if (++s->done_count < s->workers)
        return DDNN_OK;
    rec = &s->records[s->flight_record];
    rec->end_ns = now_ns;
    s->in_flight = 0;
    {
        int rc = s->cb.finished(s->ctx, rec->iteration, rec->buffer);
        return rc < 0 ? rc : start_next(s, now_ns);
    }
}

size_t
ddnn_syncer_record_count(const ddnn_syncer* s)
{
    return s->record_count;
}

const ddnn_syncer_record*
ddnn_syncer_record_at(const ddnn_syncer* s, size_t i)
{
    return i < s->record_count ? &s->records[i] : NULL;
}

int
ddnn_syncer_in_flight(const ddnn_syncer* s, uint32_t* iteration, uint32_t* buffer)
{
    if (s->in_flight)
    {
        if (iteration)
            *iteration = s->records[s->flight_record].iteration;
        if (buffer)
            *buffer = s->records[s->flight_record].buffer;
    }
    return s->in_flight;
}

int
ddnn_syncer_worker_done(const ddnn_syncer* s, uint32_t worker)
{
    return worker < s->workers && s->in_flight && s->done[worker];
}

size_t
ddnn_syncer_queued(const ddnn_syncer* s)
{
    return s->queued;
}
