/* SPDX-License-Identifier: GPL-2.0-only */
/* Horovod's coordinator on a cycle (ddnn-network-syncer.h), over the instant syncer's queue. */
#include "ddnn-network-syncer.h"

#include "ddnn-array.h"
#include <stdlib.h>
#include <string.h>

typedef struct
{
    uint32_t worker;
    ddnn_nsync_report kind;
    uint32_t iteration;
    uint32_t buffer;
} report;

struct ddnn_nsync
{
    ddnn_nsync_config cfg;
    ddnn_nsync_callbacks cb;
    void* ctx;
    ddnn_syncer* queue;
    report* kept; /* the reports of the cycle in progress, in order of arrival */
    size_t kept_count, kept_cap;
    int64_t last_ns; /* the latest time given */
    ddnn_nsync_stats stats;
};

void
ddnn_nsync_callbacks_init(ddnn_nsync_callbacks* cb)
{
    memset(cb, 0, sizeof *cb);
}

/* The queue started (iteration, buffer): the response to every worker. */
static int
queue_start(void* ctx, uint32_t iteration, uint32_t buffer)
{
    ddnn_nsync* n = ctx;
    for (uint32_t w = 0; w < n->cfg.queue.workers; w++)
    {
        int rc = n->cb.send_start(n->ctx, w, iteration, buffer);
        if (rc != DDNN_OK)
            return rc;
        n->stats.responses++;
        n->stats.bytes += n->cfg.response_bytes;
    }
    return DDNN_OK;
}

static int
queue_finished(void* ctx, uint32_t iteration, uint32_t buffer)
{
    ddnn_nsync* n = ctx;
    return n->cb.finished ? n->cb.finished(n->ctx, iteration, buffer) : DDNN_OK;
}

int
ddnn_nsync_new(ddnn_nsync** out,
               const ddnn_nsync_config* cfg,
               const ddnn_nsync_callbacks* cb,
               void* ctx)
{
    if (!out || !cfg || !cb || !cb->send_start || cfg->cycle_ns < 1)
        return DDNN_ERR_INVALID;
    *out = NULL;
    ddnn_nsync* n = calloc(1, sizeof *n);
    if (!n)
        return DDNN_ERR_NOMEM;
    n->cfg = *cfg;
    n->cfg.queue.buffer_lowest = NULL; /* the queue keeps its own copy */
    n->cb = *cb;
    n->ctx = ctx;
    ddnn_syncer_callbacks qcb;
    ddnn_syncer_callbacks_init(&qcb);
    qcb.start = queue_start;
    qcb.finished = queue_finished;
    int rc = ddnn_syncer_new(&n->queue, &cfg->queue, &qcb, n);
    if (rc != DDNN_OK)
    {
        free(n);
        return rc;
    }
    *out = n;
    return DDNN_OK;
}

void
ddnn_nsync_free(ddnn_nsync* n)
{
    if (!n)
        return;
    ddnn_syncer_free(n->queue);
    free(n->kept);
    free(n);
}

/* The end of the cycle in which `t_ns` falls (cycles end at multiples of cycle_ns). */
static int64_t
cycle_end(const ddnn_nsync* n, int64_t t_ns)
{
    const int64_t cycle = n->cfg.cycle_ns;
    const int64_t ends = t_ns / cycle + 1;
    return ends > INT64_MAX / cycle ? DDNN_NSYNC_NEVER - 1 : ends * cycle;
}

/* When wake() is next wanted: the end of the cycle of the oldest kept report. */
static int64_t
next_wake(const ddnn_nsync* n)
{
    return n->kept_count ? cycle_end(n, n->last_ns) : DDNN_NSYNC_NEVER;
}

int
ddnn_nsync_on_report(ddnn_nsync* n,
                     int64_t now_ns,
                     uint32_t worker,
                     ddnn_nsync_report kind,
                     uint32_t iteration,
                     uint32_t buffer,
                     int64_t* next_ns)
{
    if (!n || !next_ns)
        return DDNN_ERR_INVALID;
    if (worker >= n->cfg.queue.workers || (kind != DDNN_NSYNC_READY && kind != DDNN_NSYNC_DONE)
        || (kind == DDNN_NSYNC_READY && buffer >= n->cfg.queue.buffers))
        return DDNN_ERR_RANGE;
    if (now_ns < n->last_ns)
        return DDNN_ERR_STATE;
    /* A report after the end of the cycle of those kept: that cycle ends first. */
    if (n->kept_count && now_ns >= cycle_end(n, n->last_ns))
    {
        int64_t ignored;
        int rc = ddnn_nsync_wake(n, now_ns, &ignored);
        if (rc != DDNN_OK)
            return rc;
    }
    const int reserved = DDNN_ARRAY_RESERVE(n->kept, n->kept_cap, n->kept_count + 1);
    if (reserved != DDNN_OK)
        return reserved;
    n->kept[n->kept_count++] = (report){worker, kind, iteration, buffer};
    n->last_ns = now_ns;
    n->stats.reports++;
    n->stats.bytes += n->cfg.report_bytes;
    *next_ns = next_wake(n);
    return DDNN_OK;
}

int
ddnn_nsync_wake(ddnn_nsync* n, int64_t now_ns, int64_t* next_ns)
{
    if (!n || !next_ns)
        return DDNN_ERR_INVALID;
    if (now_ns < n->last_ns)
        return DDNN_ERR_STATE;
    if (n->kept_count && now_ns >= cycle_end(n, n->last_ns))
    {
        /* The queue sees the cycle's reports at its end, as Horovod's coordinator does. */
        const int64_t end = cycle_end(n, n->last_ns);
        const size_t count = n->kept_count;
        n->kept_count = 0;
        n->stats.cycles++;
        for (size_t i = 0; i < count; i++)
        {
            const report* r = &n->kept[i];
            const int rc = r->kind == DDNN_NSYNC_READY
                               ? ddnn_syncer_on_ready(
                                   n->queue, r->worker, r->iteration, r->buffer, (uint64_t)end)
                               : ddnn_syncer_on_done(n->queue, r->worker, (uint64_t)end);
            if (rc != DDNN_OK)
            {
                /* The rest of the cycle is dropped: the run ends on this error. */
                return rc;
            }
        }
    }
    n->last_ns = now_ns;
    *next_ns = next_wake(n);
    return DDNN_OK;
}

void
ddnn_nsync_get_stats(const ddnn_nsync* n, ddnn_nsync_stats* out)
{
    *out = n->stats;
}

const ddnn_syncer*
ddnn_nsync_queue(const ddnn_nsync* n)
{
    return n->queue;
}
