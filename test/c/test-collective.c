/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the collective seam: the registry, and every registered collective run through
 * the generic interface over N workers (and P dedicated parameter servers where that applies)
 * wired by per-pair byte pipes. Whatever the algorithm, each rank must finish exactly once, send
 * only to its send peers, send what bytes_sent_by says, and every byte sent must be received.
 */
#include "ddnn-collective.h"
#include "ddnn-parameter-server.h"
#include "ddnn-unit.h"

#include <stdlib.h>

#define MAX_WORKERS 20 /* ranks: up to 8 workers and 9 dedicated servers */

typedef struct
{
    ddnn_collective* c;
    ddnn_collective_config cfg;
    uint64_t sent;
    uint64_t received;
    int done;
    int sent_to_stranger; /* a send to a worker outside send_peers */
} worker;

static worker workers[MAX_WORKERS];
static uint64_t pipe_bytes[MAX_WORKERS][MAX_WORKERS]; /* [from][to], in flight */
/* The network element (DDNN_PEER_NETWORK) as an ideal aggregating switch: what each worker
 * handed it, and how much of the sum it has sent back to every worker. */
static uint64_t element_in[MAX_WORKERS];
static uint64_t element_out;

static int
on_send(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    worker* w = ctx;
    const ddnn_collective_ops* ops = ddnn_collective_get_ops(w->c);
    uint32_t peers[MAX_WORKERS];
    uint32_t n = ops->send_peers(&w->cfg, peers, MAX_WORKERS);
    uint32_t i;
    int known = 0;
    (void)step;
    (void)chunk;
    for (i = 0; i < n && i < MAX_WORKERS; i++)
        known |= peers[i] == peer;
    w->sent_to_stranger += !known;
    w->sent += bytes;
    if (peer == DDNN_PEER_NETWORK)
        element_in[w->cfg.rank] += bytes;
    else
        pipe_bytes[w->cfg.rank][peer] += bytes;
    return DDNN_OK;
}

static int
on_received(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    (void)peer;
    (void)step;
    (void)chunk;
    ((worker*)ctx)->received += bytes;
    return DDNN_OK;
}

static int
on_done(void* ctx)
{
    ((worker*)ctx)->done++;
    return DDNN_OK;
}

/* Creates and starts one buffer of `bytes` on every rank of n workers (and `servers`
 * parameter servers where that applies, dedicated hosts when `dedicated`); returns the ranks. */
static uint32_t
start_all(const ddnn_collective_ops* ops,
          uint32_t n,
          uint32_t servers,
          uint32_t dedicated,
          uint64_t bytes)
{
    static const ddnn_collective_callbacks cb = {
        .send = on_send,
        .received = on_received,
        .done = on_done,
    };
    uint32_t i, ranks;
    memset(workers, 0, sizeof workers);
    memset(pipe_bytes, 0, sizeof pipe_bytes);
    memset(element_in, 0, sizeof element_in);
    element_out = 0;
    workers[0].cfg.workers = n;
    workers[0].cfg.servers = servers;
    workers[0].cfg.dedicated = dedicated;
    ranks = ddnn_collective_ranks(&workers[0].cfg);
    for (i = 0; i < ranks; i++)
    {
        workers[i].cfg = workers[0].cfg;
        workers[i].cfg.rank = i;
        CHECK(ddnn_collective_new(&workers[i].c, ops, &workers[i].cfg, &cb, &workers[i]) == 0);
    }
    for (i = 0; i < ranks; i++)
        CHECK(ddnn_collective_start(workers[i].c, bytes) == DDNN_OK);
    return ranks;
}

/* One buffer of `bytes` over n workers (and `servers` parameter servers where that applies,
 * dedicated hosts when `dedicated`), delivering at most `chunk` bytes per pipe per round. */
static void
run_layout(const ddnn_collective_ops* ops,
           uint32_t n,
           uint32_t servers,
           uint32_t dedicated,
           uint64_t bytes,
           uint64_t chunk)
{
    const uint32_t ranks = start_all(ops, n, servers, dedicated, bytes);
    uint32_t i, j;
    uint64_t sent = 0, received = 0;
    int moved = 1;
    while (moved)
    {
        /* The element sends back what every worker has contributed to. */
        uint64_t summed = UINT64_MAX;
        moved = 0;
        for (i = 0; i < n; i++)
            summed = element_in[i] < summed ? element_in[i] : summed;
        if (ops->network_peer && summed > element_out)
        {
            const uint64_t take = summed - element_out < chunk ? summed - element_out : chunk;
            element_out += take;
            moved = 1;
            for (i = 0; i < n; i++)
                CHECK(ddnn_collective_on_received(workers[i].c, DDNN_PEER_NETWORK, take)
                      == DDNN_OK);
        }
        for (i = 0; i < ranks; i++)
            for (j = 0; j < ranks; j++)
            {
                uint64_t take = pipe_bytes[i][j] < chunk ? pipe_bytes[i][j] : chunk;
                if (take == 0)
                    continue;
                pipe_bytes[i][j] -= take;
                moved = 1;
                CHECK(ddnn_collective_on_received(workers[j].c, i, take) == DDNN_OK);
            }
    }
    for (i = 0; i < ranks; i++)
    {
        CHECK(workers[i].done == 1);
        CHECK(!ddnn_collective_active(workers[i].c));
        CHECK(workers[i].sent_to_stranger == 0);
        CHECK_U64(workers[i].sent, ops->bytes_sent_by(&workers[i].cfg, bytes));
        sent += workers[i].sent;
        received += workers[i].received;
        ddnn_collective_free(workers[i].c);
    }
    CHECK_U64(received, sent); /* conservation: no byte lost or invented */
    if (ops->network_peer)
        CHECK_U64(element_out, bytes); /* the element sent the sum of the buffer, once */
}

/* The same with the servers, if any, co-located with workers. */
static void
run(const ddnn_collective_ops* ops, uint32_t n, uint32_t servers, uint64_t bytes, uint64_t chunk)
{
    run_layout(ops, n, servers, 0, bytes, chunk);
}

static void
registry_finds_by_name(void)
{
    size_t i, j;
    CHECK(ddnn_collective_registered() >= 1);
    CHECK(ddnn_collective_find("ring-allreduce") != NULL);
    CHECK(ddnn_collective_find("ring") == NULL);
    CHECK(ddnn_collective_find(NULL) == NULL);
    CHECK(ddnn_collective_at(ddnn_collective_registered()) == NULL);
    for (i = 0; i < ddnn_collective_registered(); i++)
    {
        const ddnn_collective_ops* ops = ddnn_collective_at(i);
        CHECK(ops->name && ops->summary && ops->send_peers && ops->receive_peers
              && ops->bytes_sent_by && ops->sequential_steps && ops->create && ops->destroy
              && ops->start && ops->on_received && ops->active && ops->describe);
        CHECK(ddnn_collective_find(ops->name) == ops);
        for (j = 0; j < i; j++)
            CHECK(strcmp(ddnn_collective_at(j)->name, ops->name) != 0);
    }
}

static void
every_collective_conserves_bytes(void)
{
    static const uint32_t sizes[] = {2, 3, 5, 8};
    static const uint64_t buffers[] = {1, 7, 1000, 1048577};
    size_t i, s, b;
    uint32_t p;
    for (i = 0; i < ddnn_collective_registered(); i++)
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (p = 0; p <= sizes[s]; p++)
                for (b = 0; b < sizeof buffers / sizeof buffers[0]; b++)
                {
                    run(ddnn_collective_at(i), sizes[s], p, buffers[b], 1460);
                    run(ddnn_collective_at(i), sizes[s], p, buffers[b], 1u << 30);
                }
    /* Dedicated servers, 1..N+1 of them (more servers than workers is allowed). */
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (p = 1; p <= sizes[s] + 1; p++)
            for (b = 0; b < sizeof buffers / sizeof buffers[0]; b++)
            {
                run_layout(
                    ddnn_collective_find("parameter-server"), sizes[s], p, 1, buffers[b], 1460);
                run_layout(
                    ddnn_collective_find("parameter-server"), sizes[s], p, 1, buffers[b], 1u << 30);
            }
}

/* Ring-allreduce through the seam sends 2(N-1)/N of the buffer per worker (thesis eq. 4.1). */
static void
ring_sends_first_principles_bytes(void)
{
    const ddnn_collective_ops* ring = ddnn_collective_find("ring-allreduce");
    ddnn_collective_config rank0 = {.workers = 4, .rank = 0};
    CHECK_U64(ring->bytes_sent_by(&rank0, 4000), 2 * 3 * 4000 / 4);
    run(ring, 4, 0, 4000, 100);
    CHECK_U64(workers[0].sent, 6000);
}

/* In-network aggregation: each worker sends its buffer once, to the switch only, and is done
 * when the whole sum came back, not before. */
static void
in_network_aggregation_sends_the_buffer_once(void)
{
    static const uint32_t sizes[] = {2, 3, 8, 16};
    const ddnn_collective_ops* ina = ddnn_collective_find("in-network-aggregation");
    ddnn_collective_config cfg = {.workers = 16, .rank = 5};
    uint32_t peer = 0;
    size_t s;
    CHECK(ina != NULL && ina->network_peer && !ina->dedicated_servers);
    CHECK(ina->send_peers(&cfg, &peer, 1) == 1 && peer == DDNN_PEER_NETWORK);
    CHECK(ina->receive_peers(&cfg, &peer, 1) == 1 && peer == DDNN_PEER_NETWORK);
    CHECK_U64(ina->bytes_sent_by(&cfg, 4000), 4000);
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
        run(ina, sizes[s], 0, 1000003, 1024);
        CHECK_U64(workers[0].sent, 1000003);
        CHECK_U64(workers[0].received, 1000003);
    }
    /* One byte short of the sum: not done; a byte more than the buffer: refused. */
    start_all(ina, 2, 0, 0, 100);
    CHECK(ddnn_collective_on_received(workers[0].c, DDNN_PEER_NETWORK, 99) == DDNN_OK);
    CHECK(workers[0].done == 0 && ddnn_collective_active(workers[0].c));
    CHECK(ddnn_collective_on_received(workers[0].c, DDNN_PEER_NETWORK, 2) == DDNN_ERR_STATE);
    CHECK(ddnn_collective_on_received(workers[0].c, 1, 1) == DDNN_ERR_STATE); /* not a peer */
    CHECK(ddnn_collective_on_received(workers[0].c, DDNN_PEER_NETWORK, 1) == DDNN_OK);
    CHECK(workers[0].done == 1 && !ddnn_collective_active(workers[0].c));
    ddnn_collective_free(workers[0].c);
    ddnn_collective_free(workers[1].c);
}

/* Parameter servers: with one per worker, each worker sends what the ring sends, 2(N-1)/N of the
 * buffer; with one server, the server sends the buffer to every other worker and each of those
 * sends it the whole buffer once. */
static void
parameter_server_sends_first_principles_bytes(void)
{
    const ddnn_collective_ops* ps = ddnn_collective_find("parameter-server");
    uint32_t r;
    CHECK(ps != NULL);
    run(ps, 4, 4, 4000, 100);
    for (r = 0; r < 4; r++)
        CHECK_U64(workers[r].sent, 2 * 3 * 4000 / 4);
    run(ps, 4, 1, 4000, 100);
    CHECK_U64(workers[0].sent, 3 * 4000);
    for (r = 1; r < 4; r++)
    {
        CHECK_U64(workers[r].sent, 4000);
        CHECK_U64(workers[r].received, 4000);
    }
    run(ps, 5, 2, 1001, 7); /* shards of 501 and 500 bytes */
    CHECK_U64(workers[0].sent, 500 + 4 * 501);
    CHECK_U64(workers[1].sent, 501 + 4 * 500);
    CHECK_U64(workers[4].sent, 1001);
}

/* Dedicated parameter servers (ranks N..N+P-1) for N in {2, 3, 5, 8} and P in 1..N+1: every
 * worker pushes the whole buffer (the P shards sum to S) and pulls it back, S each way, and talks
 * to the servers only; server k receives and sends N x shard(k), to and from the workers only;
 * with P = 1 that is N x S each way. */
static void
parameter_server_dedicated_first_principles(void)
{
    static const uint32_t sizes[] = {2, 3, 5, 8};
    const ddnn_collective_ops* ps = ddnn_collective_find("parameter-server");
    const uint64_t s_bytes = 1000003; /* prime: no P divides it, the shards differ by one */
    size_t s;
    uint32_t p, r, k;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (p = 1; p <= sizes[s] + 1; p++)
        {
            const uint32_t n = sizes[s];
            uint64_t shards = 0;
            for (k = 0; k < p; k++)
            {
                const uint64_t shard = ddnn_ps_shard_bytes(s_bytes, p, k);
                CHECK(shard == s_bytes / p || shard == s_bytes / p + 1);
                shards += shard;
            }
            CHECK_U64(shards, s_bytes); /* the shards sum to the model exactly */
            run_layout(ps, n, p, 1, s_bytes, 1460);
            for (r = 0; r < n; r++)
            {
                uint32_t peers[MAX_WORKERS];
                uint32_t count = ps->send_peers(&workers[r].cfg, peers, MAX_WORKERS);
                CHECK_U64(workers[r].sent, s_bytes);     /* push */
                CHECK_U64(workers[r].received, s_bytes); /* pull */
                CHECK_U64(count, p);
                for (k = 0; k < count && k < MAX_WORKERS; k++)
                    CHECK_U64(peers[k], n + k);
            }
            for (k = 0; k < p; k++)
            {
                const worker* server = &workers[n + k];
                uint32_t peers[MAX_WORKERS];
                uint32_t count = ps->receive_peers(&server->cfg, peers, MAX_WORKERS);
                CHECK_U64(ddnn_ps_server_rank(&server->cfg, k), n + k);
                CHECK_U64(server->sent, (uint64_t)n * ddnn_ps_shard_bytes(s_bytes, p, k));
                CHECK_U64(server->received, (uint64_t)n * ddnn_ps_shard_bytes(s_bytes, p, k));
                CHECK_U64(count, n);
                for (r = 0; r < count && r < MAX_WORKERS; r++)
                    CHECK(peers[r] < n);
            }
            if (p == 1)
                CHECK_U64(workers[n].sent, (uint64_t)n * s_bytes);
        }
}

/* A dedicated server sends nothing back until every worker's push has fully arrived, and then
 * the whole update at once. */
static void
parameter_server_dedicated_waits_for_every_push(void)
{
    const ddnn_collective_ops* ps = ddnn_collective_find("parameter-server");
    uint32_t i;
    start_all(ps, 3, 1, 1, 3000);
    for (i = 0; i < 3; i++)
        CHECK_U64(pipe_bytes[i][3], 3000);
    CHECK(ddnn_collective_on_received(workers[3].c, 0, 3000) == DDNN_OK);
    CHECK(ddnn_collective_on_received(workers[3].c, 1, 3000) == DDNN_OK);
    CHECK(ddnn_collective_on_received(workers[3].c, 2, 2999) == DDNN_OK);
    CHECK_U64(workers[3].sent, 0);
    CHECK(workers[3].done == 0);
    {
        char line[200];
        ddnn_collective_describe(workers[3].c, line, sizeof line);
        CHECK_STR_CONTAINS(line, "server of shard 0: 1 pushes still to arrive");
    }
    CHECK(ddnn_collective_on_received(workers[3].c, 2, 1) == DDNN_OK);
    CHECK_U64(workers[3].sent, 3 * 3000);
    CHECK(workers[3].done == 1);
    CHECK(!ddnn_collective_active(workers[3].c));
    CHECK(ddnn_collective_on_received(workers[3].c, 0, 1) == DDNN_ERR_STATE);
    for (i = 0; i < 4; i++)
        ddnn_collective_free(workers[i].c);
}

static void
rejects_misuse(void)
{
    const ddnn_collective_ops* ring = ddnn_collective_find("ring-allreduce");
    ddnn_collective_callbacks cb = {.send = on_send, .done = on_done};
    ddnn_collective_callbacks no_send = {.done = on_done};
    ddnn_collective_config cfg = {.workers = 3, .rank = 0};
    ddnn_collective_config alone = {.workers = 1, .rank = 0};
    ddnn_collective_config outside = {.workers = 3, .rank = 3};
    ddnn_collective* c = NULL;
    memset(workers, 0, sizeof workers);
    CHECK(ddnn_collective_new(&c, ring, &alone, &cb, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_collective_new(&c, ring, &outside, &cb, &workers[0]) == DDNN_ERR_INVALID);
    {
        const ddnn_collective_ops* ps = ddnn_collective_find("parameter-server");
        ddnn_collective_config too_many_servers = {.workers = 3, .rank = 0, .servers = 4};
        ddnn_collective_config no_dedicated_server = {.workers = 3, .rank = 0, .dedicated = 1};
        ddnn_collective_config past_the_servers
            = {.workers = 3, .rank = 5, .servers = 2, .dedicated = 1};
        ddnn_collective_config not_a_flag = {.workers = 3, .rank = 0, .servers = 2, .dedicated = 2};
        /* the ring has no servers */
        ddnn_collective_config ring_server
            = {.workers = 3, .rank = 3, .servers = 1, .dedicated = 1};
        ddnn_collective_config last_server
            = {.workers = 3, .rank = 4, .servers = 2, .dedicated = 1};
        CHECK(ddnn_collective_new(&c, ring, &too_many_servers, &cb, &workers[0])
              == DDNN_ERR_INVALID);
        CHECK(ddnn_collective_new(&c, ps, &no_dedicated_server, &cb, &workers[0])
              == DDNN_ERR_INVALID);
        CHECK(ddnn_collective_new(&c, ps, &past_the_servers, &cb, &workers[0]) == DDNN_ERR_INVALID);
        CHECK(ddnn_collective_new(&c, ps, &not_a_flag, &cb, &workers[0]) == DDNN_ERR_INVALID);
        CHECK(ddnn_collective_new(&c, ring, &ring_server, &cb, &workers[0]) == DDNN_ERR_INVALID);
        /* nor server ranks of its own, for its workers either */
        {
            ddnn_collective_config ring_worker
                = {.workers = 3, .rank = 0, .servers = 1, .dedicated = 1};
            CHECK(ddnn_collective_new(&c, ring, &ring_worker, &cb, &workers[0])
                  == DDNN_ERR_INVALID);
        }
        CHECK(ddnn_collective_new(&c, ps, &last_server, &cb, &workers[0]) == DDNN_OK);
        ddnn_collective_free(c);
        c = NULL;
    }
    CHECK(ddnn_collective_new(&c, ring, &cfg, &no_send, &workers[0]) == DDNN_ERR_INVALID);
    CHECK(ddnn_collective_new(&c, NULL, &cfg, &cb, &workers[0]) == DDNN_ERR_INVALID);
    workers[0].cfg = cfg;
    CHECK(ddnn_collective_new(&c, ring, &cfg, &cb, &workers[0]) == DDNN_OK);
    workers[0].c = c;
    CHECK(ddnn_collective_start(c, 0) == DDNN_ERR_INVALID);
    CHECK(ddnn_collective_on_received(c, 2, 1) == DDNN_ERR_STATE); /* nothing started */
    CHECK(ddnn_collective_start(c, 300) == DDNN_OK);
    CHECK(ddnn_collective_start(c, 300) == DDNN_ERR_STATE);
    CHECK(ddnn_collective_on_received(c, 1, 1) == DDNN_ERR_STATE); /* 1 is not its left */
    CHECK(ddnn_collective_on_received(c, 2, 1) == DDNN_OK);
    {
        char line[200];
        ddnn_collective_describe(c, line, sizeof line);
        CHECK_STR_CONTAINS(line, "of 4 steps received");
    }
    ddnn_collective_free(c);
}

static int
failing_send(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    (void)ctx;
    (void)peer;
    (void)step;
    (void)chunk;
    (void)bytes;
    return DDNN_ERR_IO;
}

/* A host's error comes out of the call that triggered it. */
static void
callback_errors_propagate(void)
{
    ddnn_collective_callbacks cb = {.send = failing_send, .done = on_done};
    ddnn_collective_config cfg = {.workers = 3, .rank = 1};
    ddnn_collective* c = NULL;
    CHECK(ddnn_collective_new(&c, ddnn_collective_find("ring-allreduce"), &cfg, &cb, NULL) == 0);
    CHECK(ddnn_collective_start(c, 300) == DDNN_ERR_IO);
    ddnn_collective_free(c);
}

/* ddnn_collective_callbacks_init, as the C++ shim uses it: every callback NULL (a table left so
 * is refused), then the ones set by name. */
static void
callbacks_init_zeroes(void)
{
    ddnn_collective_callbacks cb = {.send = on_send, .received = on_received, .done = on_done};
    ddnn_collective_config cfg = {.workers = 2, .rank = 0};
    ddnn_collective* c = NULL;
    ddnn_collective_callbacks_init(&cb);
    CHECK(cb.send == NULL && cb.received == NULL && cb.done == NULL);
    CHECK(ddnn_collective_new(&c, ddnn_collective_find("ring-allreduce"), &cfg, &cb, NULL)
          == DDNN_ERR_INVALID);
    cb.send = on_send;
    cb.done = on_done;
    CHECK(ddnn_collective_new(&c, ddnn_collective_find("ring-allreduce"), &cfg, &cb, NULL)
          == DDNN_OK);
    ddnn_collective_free(c);
}

/* Phases: a ring's first N-1 steps reduce-scatter (aggregation), the other N-1 all-gather; a
 * parameter server's push is step 0, its pull step 1; a collective without phases gives -1. */
static void
phases_of_steps(void)
{
    static const ddnn_collective_callbacks cb = {.send = on_send, .done = on_done};
    static ddnn_collective_ops phaseless;
    const uint32_t sizes[] = {2, 3, 8, 16};
    ddnn_collective* c = NULL;
    size_t i;
    uint32_t step;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        ddnn_collective_config cfg = {.workers = sizes[i], .rank = 0};
        CHECK(ddnn_collective_new(&c, ddnn_collective_find("ring-allreduce"), &cfg, &cb, NULL)
              == DDNN_OK);
        for (step = 0; step < 2 * (sizes[i] - 1); step++)
            CHECK(ddnn_collective_phase_of_step(c, step)
                  == (step < sizes[i] - 1 ? DDNN_PHASE_AGGREGATION : DDNN_PHASE_DISTRIBUTION));
        ddnn_collective_free(c);
        CHECK(ddnn_collective_new(&c, ddnn_collective_find("parameter-server"), &cfg, &cb, NULL)
              == DDNN_OK);
        CHECK(ddnn_collective_phase_of_step(c, 0) == DDNN_PHASE_AGGREGATION);
        CHECK(ddnn_collective_phase_of_step(c, 1) == DDNN_PHASE_DISTRIBUTION);
        ddnn_collective_free(c);
    }
    phaseless = *ddnn_collective_find("ring-allreduce");
    phaseless.phase_of_step = NULL;
    {
        ddnn_collective_config cfg = {.workers = 2, .rank = 0};
        CHECK(ddnn_collective_new(&c, &phaseless, &cfg, &cb, NULL) == DDNN_OK);
        CHECK(ddnn_collective_phase_of_step(c, 0) == -1);
        ddnn_collective_free(c);
    }
}

/* A registered collective: the ring's operations under a name of the test's. */
static ddnn_collective_ops
ring_named(const char* name)
{
    ddnn_collective_ops ops = *ddnn_collective_find("ring-allreduce");
    ops.name = name;
    return ops;
}

/* Registration adds after the built-in ones; the new one is found, listed and runs. */
static void
register_adds_after_builtin(void)
{
    static ddnn_collective_ops ops;
    const size_t before = ddnn_collective_registered();
    char names[200];
    ops = ring_named("test-ring");
    CHECK(strcmp(ddnn_collective_at(0)->name, "ring-allreduce") == 0);
    CHECK(strcmp(ddnn_collective_at(1)->name, "parameter-server") == 0);
    CHECK(ddnn_collective_find("test-ring") == NULL);
    CHECK(ddnn_collective_register(&ops) == DDNN_OK);
    CHECK(ddnn_collective_registered() == before + 1);
    CHECK(ddnn_collective_find("test-ring") == &ops);
    CHECK(ddnn_collective_at(before) == &ops);
    CHECK_U64(ddnn_collective_names("|", names, sizeof names),
              strlen("ring-allreduce|parameter-server|in-network-aggregation|test-ring"));
    CHECK(strcmp(names, "ring-allreduce|parameter-server|in-network-aggregation|test-ring") == 0);
    run(&ops, 5, 0, 1048577, 1460);
}

/* The list of names is cut to the room given, always terminated, and says its whole length. */
static void
names_fit_the_room_given(void)
{
    char cut[8];
    const size_t whole = ddnn_collective_names(", ", NULL, 0);
    CHECK(whole > strlen("ring-allreduce, parameter-server"));
    CHECK_U64(ddnn_collective_names(", ", cut, sizeof cut), whole);
    CHECK(strcmp(cut, "ring-al") == 0);
    CHECK_U64(ddnn_collective_names(", ", cut, 1), whole);
    CHECK(cut[0] == '\0');
}

/* NULL, a name no scenario file can hold, or a missing operation: DDNN_ERR_INVALID. */
static void
register_refuses_invalid(void)
{
    static const char* const bad_names[] = {NULL, "", "Ring", "a|b", "a b", "tree,ring"};
    const size_t before = ddnn_collective_registered();
    size_t i;
    CHECK(ddnn_collective_register(NULL) == DDNN_ERR_INVALID);
    for (i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
    {
        ddnn_collective_ops ops = ring_named(bad_names[i]);
        CHECK(ddnn_collective_register(&ops) == DDNN_ERR_INVALID);
    }
    for (i = 0; i < 12; i++)
    {
        ddnn_collective_ops ops = ring_named("test-incomplete");
        switch (i)
        {
            case 0:
                ops.summary = NULL;
                break;
            case 1:
                ops.send_peers = NULL;
                break;
            case 2:
                ops.receive_peers = NULL;
                break;
            case 3:
                ops.bytes_sent_by = NULL;
                break;
            case 4:
                ops.sequential_steps = NULL;
                break;
            case 5:
                ops.create = NULL;
                break;
            case 6:
                ops.destroy = NULL;
                break;
            case 7:
                ops.start = NULL;
                break;
            case 8:
                ops.on_received = NULL;
                break;
            case 9:
                ops.active = NULL;
                break;
            case 10:
                ops.describe = NULL;
                break;
            default:
                ops.name = "test-Incomplete";
                break;
        }
        CHECK(ddnn_collective_register(&ops) == DDNN_ERR_INVALID);
    }
    CHECK(ddnn_collective_registered() == before);
    CHECK(ddnn_collective_find("test-incomplete") == NULL);
}

/* A name already registered, built-in or not: DDNN_ERR_DUPLICATE, the first one stays. */
static void
register_refuses_duplicate(void)
{
    static ddnn_collective_ops again;
    const ddnn_collective_ops* ring = ddnn_collective_find("ring-allreduce");
    const size_t before = ddnn_collective_registered();
    again = ring_named("ring-allreduce");
    CHECK(ddnn_collective_register(&again) == DDNN_ERR_DUPLICATE);
    CHECK(ddnn_collective_register(ring) == DDNN_ERR_DUPLICATE);
    CHECK(ddnn_collective_register(ddnn_collective_find("test-ring")) == DDNN_ERR_DUPLICATE);
    CHECK(ddnn_collective_find("ring-allreduce") == ring);
    CHECK(ddnn_collective_registered() == before);
    CHECK(strcmp(ddnn_strerror(DDNN_ERR_DUPLICATE), "") != 0);
}

/* The table holds DDNN_COLLECTIVES_MAX; one more is DDNN_ERR_TOO_LARGE and changes nothing. */
static void
register_refuses_when_full(void)
{
    static ddnn_collective_ops fill[DDNN_COLLECTIVES_MAX];
    static char names[DDNN_COLLECTIVES_MAX][16];
    size_t i;
    for (i = 0; ddnn_collective_registered() < DDNN_COLLECTIVES_MAX; i++)
    {
        snprintf(names[i], sizeof names[i], "test-fill-%zu", i);
        fill[i] = ring_named(names[i]);
        CHECK(ddnn_collective_register(&fill[i]) == DDNN_OK);
    }
    CHECK(i < DDNN_COLLECTIVES_MAX);
    snprintf(names[i], sizeof names[i], "test-fill-%zu", i);
    fill[i] = ring_named(names[i]);
    CHECK(ddnn_collective_register(&fill[i]) == DDNN_ERR_TOO_LARGE);
    CHECK(ddnn_collective_registered() == DDNN_COLLECTIVES_MAX);
    CHECK(ddnn_collective_find(names[i]) == NULL);
    CHECK(ddnn_collective_find(names[0]) == &fill[0]);
    CHECK(ddnn_collective_at(DDNN_COLLECTIVES_MAX) == NULL);
    CHECK(strcmp(ddnn_strerror(DDNN_ERR_TOO_LARGE), "") != 0);
}

/* Group distribution: a send to every peer of the group at once, delivered to each. */
static int group_sends;
static int
on_send_group(
    void* ctx, const uint32_t* peers, uint32_t count, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    worker* w = ctx;
    uint32_t i;
    (void)step;
    (void)chunk;
    group_sends++;
    w->sent += bytes; /* once: the network copies it */
    for (i = 0; i < count; i++)
        pipe_bytes[w->cfg.rank][peers[i]] += bytes;
    return DDNN_OK;
}

/* With group distribution, each of P dedicated servers (N in {2, 3, 8, 16}) sends its updated
 * shard once to the N workers together, and sends only that (bytes_sent_by agrees); every
 * worker still pushes and pulls the whole buffer. A ring, co-located servers, or a host without
 * send_group are refused. */
static void
parameter_server_group_distribution(void)
{
    static const uint32_t sizes[] = {2, 3, 8, 16};
    const ddnn_collective_ops* ps = ddnn_collective_find("parameter-server");
    const uint64_t s_bytes = 100003;
    size_t s;
    uint32_t p, i, j;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (p = 1; p <= 2; p++)
        {
            const uint32_t n = sizes[s];
            const ddnn_collective_callbacks cb = {.send = on_send,
                                                  .send_group = on_send_group,
                                                  .received = on_received,
                                                  .done = on_done};
            ddnn_collective_config cfg = {.workers = n, .servers = p, .dedicated = 1};
            const uint32_t ranks = n + p;
            cfg.group_distribution = 1;
            memset(workers, 0, sizeof workers);
            memset(pipe_bytes, 0, sizeof pipe_bytes);
            memset(element_in, 0, sizeof element_in);
            element_out = 0;
            group_sends = 0;
            for (i = 0; i < ranks; i++)
            {
                workers[i].cfg = cfg;
                workers[i].cfg.rank = i;
                CHECK(ddnn_collective_new(&workers[i].c, ps, &workers[i].cfg, &cb, &workers[i])
                      == DDNN_OK);
            }
            for (i = 0; i < ranks; i++)
                CHECK(ddnn_collective_start(workers[i].c, s_bytes) == DDNN_OK);
            for (int moved = 1; moved;)
            {
                moved = 0;
                for (i = 0; i < ranks; i++)
                    for (j = 0; j < ranks; j++)
                        if (pipe_bytes[i][j])
                        {
                            const uint64_t take = pipe_bytes[i][j];
                            pipe_bytes[i][j] = 0;
                            moved = 1;
                            CHECK(ddnn_collective_on_received(workers[j].c, i, take) == DDNN_OK);
                        }
            }
            CHECK_U64(group_sends, p);
            for (i = 0; i < ranks; i++)
            {
                CHECK(workers[i].done == 1);
                CHECK_U64(workers[i].sent, ps->bytes_sent_by(&workers[i].cfg, s_bytes));
                if (i < n)
                    CHECK_U64(workers[i].received, s_bytes); /* every shard, updated */
                else
                    CHECK_U64(workers[i].sent, ddnn_ps_shard_bytes(s_bytes, p, i - n));
                ddnn_collective_free(workers[i].c);
            }
        }
    {
        const ddnn_collective_callbacks cb = {
            .send = on_send, .send_group = on_send_group, .received = on_received, .done = on_done};
        ddnn_collective_callbacks unicast = cb;
        ddnn_collective_config cfg = {.workers = 4, .servers = 1, .group_distribution = 1};
        ddnn_collective* c = NULL;
        unicast.send_group = NULL;
        CHECK(ddnn_collective_new(&c, ps, &cfg, &cb, NULL) == DDNN_ERR_INVALID); /* co-located */
        cfg.dedicated = 1;
        CHECK(ddnn_collective_new(&c, ps, &cfg, &unicast, NULL) == DDNN_ERR_INVALID);
        cfg.group_distribution = 2;
        CHECK(ddnn_collective_new(&c, ps, &cfg, &cb, NULL) == DDNN_ERR_INVALID);
        cfg.dedicated = 0;
        cfg.servers = 0;
        cfg.group_distribution = 1;
        CHECK(ddnn_collective_new(&c, ddnn_collective_find("ring-allreduce"), &cfg, &cb, NULL)
              == DDNN_ERR_INVALID);
        CHECK(c == NULL);
    }
}

int
main(void)
{
    RUN(registry_finds_by_name);
    RUN(every_collective_conserves_bytes);
    RUN(ring_sends_first_principles_bytes);
    RUN(parameter_server_sends_first_principles_bytes);
    RUN(in_network_aggregation_sends_the_buffer_once);
    RUN(parameter_server_dedicated_first_principles);
    RUN(parameter_server_dedicated_waits_for_every_push);
    RUN(parameter_server_group_distribution);
    RUN(rejects_misuse);
    RUN(callback_errors_propagate);
    RUN(callbacks_init_zeroes);
    /* last: they add to the process's registry, up to full */
    RUN(phases_of_steps);
    RUN(register_adds_after_builtin);
    RUN(names_fit_the_room_given);
    RUN(register_refuses_invalid);
    RUN(register_refuses_duplicate);
    RUN(register_refuses_when_full);
    return UNIT_REPORT();
}
