/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In-network aggregation's switch and workers (ddnn-aggregation.h), run together over a
 * small event-driven network of this file: one hop of 1 us between each worker and the
 * switch, each contribution carrying the value 1000 (w + 1) + c for worker w and chunk c, so
 * that each result must carry the sum over the workers, and one fault at a time: a
 * contribution or a result lost, a contribution delayed past others, a packet delivered
 * twice.
 */
#include "ddnn-aggregation.h"
#include "ddnn-unit.h"

#include <stdlib.h>

#define HOP_NS      1000
#define MAX_WORKERS 16
#define MAX_EVENTS  8192
#define CHUNK       1000
#define GRADIENT    (9 * CHUNK + 500) /* ten chunks, the last one half full */
#define NONE        UINT32_MAX

typedef enum
{
    EV_CONTRIBUTION, /* node: worker; a: chunk, b: slot, len, value */
    EV_RESULT,       /* node: worker; a: chunk, len, value */
    EV_WAKE          /* node: worker */
} event_kind;

typedef struct
{
    int64_t t;
    uint64_t order;
    event_kind kind;
    uint32_t node, a, b, len;
    int64_t value;
} event;

/* One fault, or none: the first contribution of chunk `chunk` from worker `worker` lost
 * (lose_contribution), the first result of chunk `chunk` to worker `worker` lost
 * (lose_result), that contribution delayed by 5 hops (late), or delivered twice (twice). */
typedef struct
{
    int lose_contribution, lose_result, late, twice;
    uint32_t chunk, worker;
} fault;

typedef struct net net;
typedef struct
{
    net* n;
    uint32_t index;
} worker_ctx;

struct net
{
    uint32_t workers;
    ddnn_agg_switch* sw;
    ddnn_agg_worker* w[MAX_WORKERS];
    worker_ctx ctx[MAX_WORKERS];
    event events[MAX_EVENTS];
    uint32_t count;
    uint64_t order;
    int64_t now;
    fault f;
    int overflow;
    int wrong_sums;
};

static void
schedule(net* n, event e)
{
    if (n->count == MAX_EVENTS)
    {
        n->overflow = 1;
        return;
    }
    e.order = n->order++;
    uint32_t i = n->count++;
    while (i > 0
           && (n->events[i - 1].t < e.t
               || (n->events[i - 1].t == e.t && n->events[i - 1].order < e.order)))
    {
        n->events[i] = n->events[i - 1];
        i--;
    }
    n->events[i] = e;
}

static int64_t
value_of(uint32_t worker, uint32_t chunk)
{
    return 1000 * (int64_t)(worker + 1) + chunk;
}

static int
on_send_chunk(void* ctx, uint32_t chunk, uint32_t slot, uint64_t offset, uint32_t length, int re)
{
    worker_ctx* wc = ctx;
    net* n = wc->n;
    fault* f = &n->f;
    (void)re;
    CHECK_U64(offset, (uint64_t)chunk * CHUNK);
    event e = {n->now + HOP_NS,
               0,
               EV_CONTRIBUTION,
               wc->index,
               chunk,
               slot,
               length,
               value_of(wc->index, chunk)};
    if (chunk == f->chunk && wc->index == f->worker)
    {
        if (f->lose_contribution)
        {
            f->lose_contribution = 0;
            return DDNN_OK;
        }
        if (f->late)
        {
            f->late = 0;
            e.t += 5 * HOP_NS;
        }
        if (f->twice)
        {
            f->twice = 0;
            schedule(n, e);
        }
    }
    schedule(n, e);
    return DDNN_OK;
}

/* A contribution of its fields, in the header's order. */
static int
contribute(ddnn_agg_switch* sw,
           uint32_t job,
           uint32_t worker,
           uint32_t chunk,
           uint32_t slot,
           uint32_t length,
           int64_t value)
{
    const ddnn_agg_chunk_message c = {job, worker, chunk, slot, length, value};
    return ddnn_agg_switch_on_contribution(sw, &c);
}

static int
on_send_result(void* ctx, const ddnn_agg_chunk_message* r)
{
    net* n = ctx;
    CHECK_U64(r->job, 0);
    for (uint32_t w = 0; w < n->workers; w++)
    {
        if (r->worker != DDNN_AGG_ALL && r->worker != w)
            continue;
        if (n->f.lose_result && r->chunk == n->f.chunk && w == n->f.worker)
        {
            n->f.lose_result = 0;
            continue;
        }
        schedule(n, (event){n->now + HOP_NS, 0, EV_RESULT, w, r->chunk, 0, r->length, r->value});
    }
    return DDNN_OK;
}

/* Sets up n with the workers' configuration `cfg` (its slots the job's). */
static void
setup_with(net* n, uint32_t workers, const ddnn_agg_worker_config* cfg, fault f)
{
    const uint32_t slots = cfg->slots;
    memset(n, 0, sizeof *n);
    n->workers = workers;
    n->f = f;
    ddnn_agg_switch_callbacks scb;
    ddnn_agg_switch_callbacks_init(&scb);
    scb.send_result = on_send_result;
    CHECK(ddnn_agg_switch_new(&n->sw, (uint64_t)slots * CHUNK, &scb, n) == DDNN_OK);
    CHECK(ddnn_agg_switch_add_job(n->sw, 0, workers, slots, CHUNK) == DDNN_OK);
    ddnn_agg_worker_callbacks wcb;
    ddnn_agg_worker_callbacks_init(&wcb);
    wcb.send_chunk = on_send_chunk;
    for (uint32_t w = 0; w < workers; w++)
    {
        n->ctx[w] = (worker_ctx){n, w};
        CHECK(ddnn_agg_worker_new(&n->w[w], cfg, &wcb, &n->ctx[w]) == DDNN_OK);
    }
}

/* The default: a least timeout of 50 hops, no round-trip estimate yet. */
static void
setup(net* n, uint32_t workers, uint32_t slots, fault f)
{
    const ddnn_agg_worker_config cfg = {GRADIENT, CHUNK, slots, 50 * HOP_NS, 0, 0};
    setup_with(n, workers, &cfg, f);
}

static void
teardown(net* n)
{
    ddnn_agg_switch_free(n->sw);
    for (uint32_t w = 0; w < n->workers; w++)
        ddnn_agg_worker_free(n->w[w]);
}

static int
all_complete(const net* n)
{
    for (uint32_t w = 0; w < n->workers; w++)
        if (!ddnn_agg_worker_complete(n->w[w]))
            return 0;
    return 1;
}

static void
wake_at(net* n, uint32_t worker, int64_t next)
{
    if (next != DDNN_AGG_NEVER)
        schedule(n, (event){next, 0, EV_WAKE, worker, 0, 0, 0, 0});
}

/* Runs until every worker has every result; checks each result's sum as it arrives. */
static void
run(net* n)
{
    int64_t next;
    for (uint32_t w = 0; w < n->workers; w++)
    {
        CHECK(ddnn_agg_worker_start(n->w[w], 0, &next) == DDNN_OK);
        wake_at(n, w, next);
    }
    uint32_t steps = 0;
    while (n->count > 0 && !all_complete(n) && steps++ < 200000)
    {
        const event e = n->events[--n->count];
        n->now = e.t;
        switch (e.kind)
        {
            case EV_CONTRIBUTION:
                CHECK(contribute(n->sw, 0, e.node, e.a, e.b, e.len, e.value) == DDNN_OK);
                break;
            case EV_RESULT: {
                int64_t expected = 0;
                for (uint32_t w = 0; w < n->workers; w++)
                    expected += value_of(w, e.a);
                n->wrong_sums += e.value != expected;
                CHECK(ddnn_agg_worker_on_result(n->w[e.node], e.t, e.a, e.len, &next) == DDNN_OK);
                wake_at(n, e.node, next);
                break;
            }
            case EV_WAKE:
                CHECK(ddnn_agg_worker_wake(n->w[e.node], e.t, &next) == DDNN_OK);
                wake_at(n, e.node, next);
                break;
        }
    }
    CHECK(!n->overflow);
    CHECK(all_complete(n));
    CHECK(n->wrong_sums == 0);
    for (uint32_t w = 0; w < n->workers; w++)
    {
        ddnn_agg_worker_stats ws;
        ddnn_agg_worker_get_stats(n->w[w], &ws);
        CHECK_U64(ws.bytes, GRADIENT); /* the whole aggregate, each chunk once */
        CHECK_U64(ws.results, 10);
        CHECK_U64(ws.chunks, 10); /* each chunk sent once, then only again */
        CHECK_U64(ws.slots_in_use, 0);
    }
}

static ddnn_agg_switch_stats
switch_stats(const net* n)
{
    ddnn_agg_switch_stats s;
    ddnn_agg_switch_get_stats(n->sw, &s);
    return s;
}

static ddnn_agg_worker_stats
worker_stats(const net* n, uint32_t w)
{
    ddnn_agg_worker_stats s;
    ddnn_agg_worker_get_stats(n->w[w], &s);
    return s;
}

static const uint32_t kWorkers[] = {2, 3, 8, 16};
static const uint32_t kSlots[] = {1, 4, 16};
#define FOR_EACH_LAYOUT(i, k) \
    for (size_t i = 0; i < sizeof kWorkers / sizeof *kWorkers; i++) \
        for (size_t k = 0; k < sizeof kSlots / sizeof *kSlots; k++)

/* No fault: each worker sends each chunk once and gets each result once; the switch adds N
 * contributions per chunk and sends C results, each the sum of the values; its memory is
 * the K slots. With one slot the chunks go one round trip each: done after 10 of them. */
static void
test_lossless(void)
{
    static const fault none = {0, 0, 0, 0, NONE, NONE};
    FOR_EACH_LAYOUT(i, k)
    {
        net n;
        setup(&n, kWorkers[i], kSlots[k], none);
        CHECK_U64(switch_stats(&n).memory_bytes, (uint64_t)kSlots[k] * CHUNK);
        run(&n);
        const ddnn_agg_switch_stats s = switch_stats(&n);
        CHECK_U64(s.contributions, 10ull * kWorkers[i]);
        CHECK_U64(s.results, 10);
        CHECK_U64(s.repeats + s.stale + s.resent, 0);
        for (uint32_t w = 0; w < kWorkers[i]; w++)
            CHECK_U64(worker_stats(&n, w).retransmissions + worker_stats(&n, w).duplicates, 0);
        if (kSlots[k] == 1)
            CHECK_U64(n.now, 10 * 2 * HOP_NS);
        teardown(&n);
    }
}

/* Any one contribution lost: its worker sends it again after the retransmission time; the
 * result is still the sum of every worker's value, once. */
static void
test_lose_contribution(void)
{
    FOR_EACH_LAYOUT(i, k)
    for (uint32_t c = 0; c < 10; c++)
    {
        net n;
        const fault f = {1, 0, 0, 0, c, c % kWorkers[i]};
        setup(&n, kWorkers[i], kSlots[k], f);
        run(&n);
        CHECK_U64(worker_stats(&n, c % kWorkers[i]).retransmissions, 1);
        CHECK_U64(switch_stats(&n).results, 10);
        teardown(&n);
    }
}

/* Any one result lost to one worker: it sends its chunk again, and the switch, whose slot
 * kept the result, sends it the result again alone. */
static void
test_lose_result(void)
{
    FOR_EACH_LAYOUT(i, k)
    for (uint32_t c = 0; c < 10; c++)
    {
        net n;
        const uint32_t victim = (c + 1) % kWorkers[i];
        const fault f = {0, 1, 0, 0, c, victim};
        setup(&n, kWorkers[i], kSlots[k], f);
        run(&n);
        CHECK_U64(worker_stats(&n, victim).retransmissions, 1);
        CHECK_U64(switch_stats(&n).resent, 1);
        CHECK_U64(switch_stats(&n).results, 10);
        teardown(&n);
    }
}

/* A contribution overtaken by others, and one delivered twice: the same sums, the repeat
 * counted and dropped. */
static void
test_reorder_and_duplicate(void)
{
    FOR_EACH_LAYOUT(i, k)
    for (uint32_t c = 0; c < 10; c++)
    {
        net n;
        fault f = {0, 0, 1, 0, c, 0};
        setup(&n, kWorkers[i], kSlots[k], f);
        run(&n);
        CHECK_U64(switch_stats(&n).repeats + worker_stats(&n, 0).retransmissions, 0);
        teardown(&n);

        f = (fault){0, 0, 0, 1, c, 0};
        setup(&n, kWorkers[i], kSlots[k], f);
        run(&n);
        CHECK_U64(switch_stats(&n).repeats + switch_stats(&n).stale, 1);
        CHECK_U64(switch_stats(&n).results, 10);
        teardown(&n);
    }
}

/* The timeout follows the round trip: every one takes 2 hops here, so the estimate converges
 * on them; started from it, a least timeout far below the round trip resends nothing that
 * is only on its way, and still recovers a lost result. */
static void
test_adaptive_timeout(void)
{
    static const fault none = {0, 0, 0, 0, NONE, NONE};
    net n;
    int64_t srtt = 0, rttvar = 0;
    ddnn_agg_worker_config cfg = {GRADIENT, CHUNK, 4, 3 * HOP_NS, 0, 0};
    setup_with(&n, 3, &cfg, none);
    ddnn_agg_worker_get_rtt(n.w[0], &srtt, &rttvar);
    CHECK(srtt == 0); /* no sample before the first result */
    run(&n);
    ddnn_agg_worker_get_rtt(n.w[0], &srtt, &rttvar);
    CHECK(srtt == 2 * HOP_NS);
    CHECK(rttvar < HOP_NS); /* from half the first sample, down by a quarter per sample */
    teardown(&n);

    cfg.retransmit_ns = 1; /* alone, every chunk would go again at once */
    cfg.srtt_ns = srtt;
    cfg.rttvar_ns = rttvar;
    FOR_EACH_LAYOUT(i, k)
    {
        cfg.slots = kSlots[k];
        setup_with(&n, kWorkers[i], &cfg, none);
        run(&n);
        for (uint32_t w = 0; w < kWorkers[i]; w++)
            CHECK_U64(worker_stats(&n, w).retransmissions, 0);
        teardown(&n);
        const fault lost = {0, 1, 0, 0, 3, 1};
        setup_with(&n, kWorkers[i], &cfg, lost);
        run(&n);
        CHECK_U64(worker_stats(&n, 1).retransmissions, 1);
        teardown(&n);
    }
    cfg.srtt_ns = -1;
    const char* field = NULL;
    CHECK(ddnn_agg_worker_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "srtt_ns") == 0);
}

/* Jobs share the switch's memory: a second job that does not fit what the first left is
 * refused (it falls back) and fits once the first gives its slots back; the memory lent
 * never exceeds the budget. */
static void
test_memory_budget(void)
{
    ddnn_agg_switch* sw = NULL;
    ddnn_agg_switch_callbacks cb;
    ddnn_agg_switch_callbacks_init(&cb);
    cb.send_result = on_send_result;
    CHECK(ddnn_agg_switch_new(&sw, 6 * CHUNK, &cb, NULL) == DDNN_OK);
    CHECK_U64(ddnn_agg_switch_free_slots(sw, CHUNK), 6);
    CHECK(ddnn_agg_switch_add_job(sw, 0, 4, 4, CHUNK) == DDNN_OK);
    CHECK(ddnn_agg_switch_add_job(sw, 0, 4, 1, CHUNK) == DDNN_ERR_DUPLICATE);
    CHECK(ddnn_agg_switch_add_job(sw, 1, 4, 4, CHUNK) == DDNN_ERR_TOO_LARGE);
    CHECK_U64(ddnn_agg_switch_free_slots(sw, CHUNK), 2);
    ddnn_agg_switch_stats s;
    ddnn_agg_switch_get_stats(sw, &s);
    CHECK(s.memory_bytes <= 6 * CHUNK);
    CHECK(ddnn_agg_switch_remove_job(sw, 0) == DDNN_OK);
    CHECK(ddnn_agg_switch_remove_job(sw, 0) == DDNN_ERR_MISSING);
    CHECK(ddnn_agg_switch_add_job(sw, 1, 4, 4, CHUNK) == DDNN_OK);
    CHECK(ddnn_agg_switch_add_job(sw, 2, 1, 1, CHUNK) == DDNN_ERR_RANGE);  /* one worker */
    CHECK(ddnn_agg_switch_add_job(sw, 2, 2, 1, 65508) == DDNN_ERR_RANGE);  /* above UDP */
    CHECK(ddnn_agg_switch_add_job(sw, 64, 2, 1, CHUNK) == DDNN_ERR_RANGE); /* job number */
    CHECK(contribute(sw, 1, 4, 0, 0, CHUNK, 1) == DDNN_ERR_RANGE);
    CHECK(contribute(sw, 1, 0, 5, 0, CHUNK, 1) == DDNN_ERR_RANGE);
    CHECK(contribute(sw, 1, 0, 0, 0, CHUNK + 1, 1) == DDNN_ERR_RANGE);
    CHECK(contribute(sw, 3, 0, 0, 0, CHUNK, 1) == DDNN_ERR_RANGE);
    ddnn_agg_switch_free(sw);

    ddnn_agg_worker_config cfg = {0, CHUNK, 4, 1, 0, 0};
    const char* field = NULL;
    CHECK(ddnn_agg_worker_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "bytes") == 0);
    cfg.bytes = 100;
    cfg.slots = 0;
    CHECK(ddnn_agg_worker_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "slots") == 0);
}

int
main(void)
{
    RUN(test_lossless);
    RUN(test_lose_contribution);
    RUN(test_lose_result);
    RUN(test_reorder_and_duplicate);
    RUN(test_adaptive_timeout);
    RUN(test_memory_budget);
    return UNIT_REPORT();
}
