/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reliable multicast transport's sender and receivers (ddnn-multicast.h), run together
 * over a small event-driven network of this file: one hop of 1 us each way between the
 * sender and every receiver, and one fault at a time (a data packet lost to one receiver or
 * to all, a NACK or a DONE lost, a packet delayed past others, a packet delivered twice).
 */
#include "ddnn-multicast.h"
#include "ddnn-unit.h"

#include <stdlib.h>

#define HOP_NS        1000
#define MAX_RECEIVERS 16
#define MAX_EVENTS    4096
#define MESSAGE       (9 * 1400 + 700) /* ten packets, the last one half full */

typedef enum
{
    EV_DATA,  /* node: receiver; a: seq, b: length */
    EV_NACK,  /* node: receiver; a: first, b: count */
    EV_DONE,  /* node: receiver */
    EV_SWAKE, /* the sender's wake */
    EV_RWAKE  /* node: receiver */
} event_kind;

typedef struct
{
    int64_t t;
    uint64_t order; /* ties in the order of scheduling */
    event_kind kind;
    uint32_t node, a, b;
} event;

#define NONE UINT32_MAX
#define ALL  (UINT32_MAX - 1)

/* Faults, each NONE or once: the first copy of packet lose_seq lost to receiver lose_node
 * (or ALL), the lose_nack-th NACK sent (0: the first) lost, receiver lose_done's first DONE
 * lost, packet late_seq to receiver 0 three packet times late, packet twice_seq to receiver
 * 0 delivered twice; and, when not 0, each data packet delivered, NACK and DONE lost with
 * probability loss_percent / 100 (a fixed pseudo-random sequence). */
typedef struct
{
    uint32_t lose_seq, lose_node, lose_nack, lose_done, late_seq, twice_seq, loss_percent;
} faults;

static const faults kNoFault = {NONE, NONE, NONE, NONE, NONE, NONE, 0};

typedef struct net net;
typedef struct
{
    net* n;
    uint32_t index;
} receiver_ctx;

struct net
{
    ddnn_mcast_config cfg;
    ddnn_mcast_sender* sender;
    ddnn_mcast_receiver* receivers[MAX_RECEIVERS];
    receiver_ctx ctx[MAX_RECEIVERS];
    event events[MAX_EVENTS];
    uint32_t count;
    uint64_t order;
    int64_t now;
    faults fault;
    uint32_t nacks_sent;
    uint64_t random; /* xorshift64 state */
    int overflow;
};

/* Whether the random loss takes this packet. */
static int
randomly_lost(net* n)
{
    n->random ^= n->random << 13;
    n->random ^= n->random >> 7;
    n->random ^= n->random << 17;
    return n->fault.loss_percent && n->random % 100 < n->fault.loss_percent;
}

static void
schedule(net* n, int64_t t, event_kind kind, uint32_t node, uint32_t a, uint32_t b)
{
    if (n->count == MAX_EVENTS)
    {
        n->overflow = 1;
        return;
    }
    event e = {t, n->order++, kind, node, a, b};
    uint32_t i = n->count++;
    /* Sorted by time, then order: the earliest last, popped from the end. */
    while (i > 0
           && (n->events[i - 1].t < t
               || (n->events[i - 1].t == t && n->events[i - 1].order < e.order)))
    {
        n->events[i] = n->events[i - 1];
        i--;
    }
    n->events[i] = e;
}

static void
wake_at(net* n, event_kind kind, uint32_t node, int64_t next)
{
    if (next != DDNN_MCAST_NEVER)
        schedule(n, next, kind, node, 0, 0);
}

static int
on_send_data(void* ctx, uint32_t seq, uint64_t offset, uint32_t length, int repair)
{
    net* n = ctx;
    (void)repair;
    CHECK_U64(offset, (uint64_t)seq * n->cfg.packet_bytes);
    faults* f = &n->fault;
    const int lose = seq == f->lose_seq;
    f->lose_seq = lose ? NONE : f->lose_seq; /* the first copy only */
    const int late = seq == f->late_seq;
    f->late_seq = late ? NONE : f->late_seq;
    const int twice = seq == f->twice_seq;
    f->twice_seq = twice ? NONE : f->twice_seq;
    for (uint32_t r = 0; r < n->cfg.receivers; r++)
    {
        if (lose && (f->lose_node == ALL || f->lose_node == r))
            continue;
        if (randomly_lost(n))
            continue;
        const int64_t pace = (1400 + 30) * 8;
        schedule(n, n->now + HOP_NS + (late && r == 0 ? 3 * pace : 0), EV_DATA, r, seq, length);
        if (twice && r == 0)
            schedule(n, n->now + HOP_NS + 5, EV_DATA, r, seq, length);
    }
    return DDNN_OK;
}

static int
on_send_nack(void* ctx, uint32_t first, uint32_t count)
{
    receiver_ctx* rc = ctx;
    net* n = rc->n;
    if (n->nacks_sent++ == n->fault.lose_nack || randomly_lost(n))
        return DDNN_OK;
    schedule(n, n->now + HOP_NS, EV_NACK, rc->index, first, count);
    return DDNN_OK;
}

static int
on_send_done(void* ctx)
{
    receiver_ctx* rc = ctx;
    net* n = rc->n;
    if (rc->index == n->fault.lose_done)
    {
        n->fault.lose_done = NONE;
        return DDNN_OK;
    }
    if (randomly_lost(n))
        return DDNN_OK;
    schedule(n, n->now + HOP_NS, EV_DONE, rc->index, 0, 0);
    return DDNN_OK;
}

static void
setup(net* n, uint32_t receivers, faults fault)
{
    memset(n, 0, sizeof *n);
    ddnn_mcast_config_init(&n->cfg, MESSAGE, receivers, 1000000000ull);
    n->fault = fault;
    n->random = 0x9e3779b97f4a7c15ull;
    ddnn_mcast_sender_callbacks scb;
    ddnn_mcast_sender_callbacks_init(&scb);
    scb.send_data = on_send_data;
    CHECK(ddnn_mcast_sender_new(&n->sender, &n->cfg, &scb, n) == DDNN_OK);
    ddnn_mcast_receiver_callbacks rcb;
    ddnn_mcast_receiver_callbacks_init(&rcb);
    rcb.send_nack = on_send_nack;
    rcb.send_done = on_send_done;
    for (uint32_t r = 0; r < receivers; r++)
    {
        n->ctx[r] = (receiver_ctx){n, r};
        CHECK(ddnn_mcast_receiver_new(&n->receivers[r], &n->cfg, &rcb, &n->ctx[r]) == DDNN_OK);
    }
}

static void
teardown(net* n)
{
    ddnn_mcast_sender_free(n->sender);
    for (uint32_t r = 0; r < n->cfg.receivers; r++)
        ddnn_mcast_receiver_free(n->receivers[r]);
}

/* Runs until the sender is complete or nothing is left to happen; returns the time. */
static int64_t
run(net* n)
{
    int64_t next;
    CHECK(ddnn_mcast_sender_start(n->sender, 0, &next) == DDNN_OK);
    wake_at(n, EV_SWAKE, 0, next);
    uint32_t steps = 0;
    while (n->count > 0 && !ddnn_mcast_sender_complete(n->sender) && steps++ < 100000)
    {
        event e = n->events[--n->count];
        n->now = e.t;
        switch (e.kind)
        {
            case EV_DATA:
                CHECK(ddnn_mcast_receiver_on_data(n->receivers[e.node], e.t, e.a, e.b, &next)
                      == DDNN_OK);
                wake_at(n, EV_RWAKE, e.node, next);
                break;
            case EV_NACK:
                CHECK(ddnn_mcast_sender_on_nack(n->sender, e.t, e.node, e.a, e.b, &next)
                      == DDNN_OK);
                wake_at(n, EV_SWAKE, 0, next);
                break;
            case EV_DONE:
                CHECK(ddnn_mcast_sender_on_done(n->sender, e.t, e.node, &next) == DDNN_OK);
                wake_at(n, EV_SWAKE, 0, next);
                break;
            case EV_SWAKE:
                CHECK(ddnn_mcast_sender_wake(n->sender, e.t, &next) == DDNN_OK);
                wake_at(n, EV_SWAKE, 0, next);
                break;
            case EV_RWAKE:
                CHECK(ddnn_mcast_receiver_wake(n->receivers[e.node], e.t, &next) == DDNN_OK);
                wake_at(n, EV_RWAKE, e.node, next);
                break;
        }
    }
    CHECK(!n->overflow);
    CHECK(ddnn_mcast_sender_complete(n->sender));
    return n->now;
}

/* Every receiver has every byte, once. */
static void
check_delivered(const net* n)
{
    for (uint32_t r = 0; r < n->cfg.receivers; r++)
    {
        ddnn_mcast_receiver_stats rs;
        ddnn_mcast_receiver_get_stats(n->receivers[r], &rs);
        CHECK(ddnn_mcast_receiver_complete(n->receivers[r]));
        CHECK_U64(rs.bytes, MESSAGE);
        CHECK_U64(rs.packets, 10);
    }
}

static const uint32_t kReceivers[] = {2, 3, 8, 16};
#define FOR_EACH_N(k) for (size_t k = 0; k < sizeof kReceivers / sizeof *kReceivers; k++)

static ddnn_mcast_sender_stats
sender_stats(const net* n)
{
    ddnn_mcast_sender_stats ss;
    ddnn_mcast_sender_get_stats(n->sender, &ss);
    return ss;
}

static ddnn_mcast_receiver_stats
receiver_stats(const net* n, uint32_t r)
{
    ddnn_mcast_receiver_stats rs;
    ddnn_mcast_receiver_get_stats(n->receivers[r], &rs);
    return rs;
}

/* No fault: each packet once, no NACK; done when the last DONE is back: the pace of the
 * first nine packets, then the last one's hop and the DONE's. */
static void
test_lossless(void)
{
    FOR_EACH_N(k)
    {
        net n;
        setup(&n, kReceivers[k], kNoFault);
        const int64_t t = run(&n);
        check_delivered(&n);
        const ddnn_mcast_sender_stats ss = sender_stats(&n);
        CHECK_U64(ss.originals, 10);
        CHECK_U64(ss.repairs + ss.probes + ss.nacks, 0);
        CHECK_U64(ss.bytes, MESSAGE);
        CHECK_U64(ss.receivers_done, kReceivers[k]);
        const int64_t pace = (1400 + 30) * 8; /* ns at 1 Gbit/s */
        CHECK_U64(t, 9 * pace + 2 * HOP_NS);
        teardown(&n);
    }
}

/* Any one data packet lost to one receiver: one NACK and one repair (for the last packet,
 * which no gap reveals, one probe instead), every byte delivered. */
static void
test_lose_one_packet_to_one(void)
{
    FOR_EACH_N(k)
    for (uint32_t seq = 0; seq < 10; seq++)
    {
        net n;
        faults f = kNoFault;
        f.lose_seq = seq;
        f.lose_node = seq % kReceivers[k];
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        const ddnn_mcast_sender_stats ss = sender_stats(&n);
        CHECK_U64(ss.originals, 10);
        CHECK_U64(ss.repairs, seq < 9 ? 1 : 0);
        CHECK_U64(ss.probes, seq < 9 ? 0 : 1);
        CHECK_U64(receiver_stats(&n, seq % kReceivers[k]).nacks, seq < 9 ? 1 : 0);
        teardown(&n);
    }
}

/* A packet lost to every receiver: their N NACKs cost one multicast repair. */
static void
test_lose_one_packet_to_all(void)
{
    FOR_EACH_N(k)
    {
        net n;
        faults f = kNoFault;
        f.lose_seq = 4;
        f.lose_node = ALL;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        const ddnn_mcast_sender_stats ss = sender_stats(&n);
        CHECK_U64(ss.nacks, kReceivers[k]);
        CHECK_U64(ss.repairs, 1);
        CHECK_U64(ss.bytes, MESSAGE + 1400);
        teardown(&n);
    }
}

/* A lost NACK is sent again after the NACK interval; a lost DONE is drawn again by the
 * probe, which costs one packet. */
static void
test_lose_control(void)
{
    FOR_EACH_N(k)
    {
        net n;
        faults f = kNoFault;
        f.lose_seq = 2;
        f.lose_node = 1;
        f.lose_nack = 0;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        CHECK_U64(receiver_stats(&n, 1).nacks, 2);
        CHECK_U64(sender_stats(&n).nacks, 1);
        CHECK_U64(sender_stats(&n).repairs, 1);
        teardown(&n);

        f = kNoFault;
        f.lose_done = kReceivers[k] - 1;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        CHECK_U64(sender_stats(&n).probes, 1);
        CHECK_U64(sender_stats(&n).repairs, 0);
        CHECK_U64(receiver_stats(&n, kReceivers[k] - 1).duplicates, 1);
        teardown(&n);
    }
}

/* A packet overtaken by three others, within the NACK delay: no NACK, no repair. A packet
 * delivered twice: one duplicate, nothing else. */
static void
test_reorder_and_duplicate(void)
{
    FOR_EACH_N(k)
    for (uint32_t seq = 0; seq < 9; seq++)
    {
        net n;
        faults f = kNoFault;
        f.late_seq = seq;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        CHECK_U64(sender_stats(&n).repairs + sender_stats(&n).nacks, 0);
        teardown(&n);

        f = kNoFault;
        f.twice_seq = seq;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        CHECK_U64(receiver_stats(&n, 0).duplicates, 1);
        CHECK_U64(sender_stats(&n).repairs + sender_stats(&n).nacks, 0);
        teardown(&n);
    }
}

/* Heavy loss: 10 % to 50 % of data packets delivered (repairs and probes too), NACKs and
 * DONEs lost: it still completes, every byte once per receiver. */
static void
test_heavy_loss(void)
{
    FOR_EACH_N(k)
    for (uint32_t percent = 10; percent <= 50; percent += 20)
    {
        net n;
        faults f = kNoFault;
        f.loss_percent = percent;
        setup(&n, kReceivers[k], f);
        run(&n);
        check_delivered(&n);
        CHECK(sender_stats(&n).repairs + sender_stats(&n).probes > 0); /* losses recovered */
        teardown(&n);
    }
}

/* Wrong use: a configuration out of range names its field; a NACK outside the message or
 * from an unknown receiver, data of a packet the message has not or of the wrong length,
 * starting twice. */
static void
test_bad_use(void)
{
    ddnn_mcast_config cfg;
    const char* field = NULL;
    ddnn_mcast_config_init(&cfg, 0, 2, 1000);
    CHECK(ddnn_mcast_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "message_bytes") == 0);
    ddnn_mcast_config_init(&cfg, 100, 0, 1000);
    CHECK(ddnn_mcast_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "receivers") == 0);
    ddnn_mcast_config_init(&cfg, 100, 2, 0);
    CHECK(ddnn_mcast_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "rate_bps") == 0);
    ddnn_mcast_config_init(&cfg, 100, 2, 1000);
    cfg.packet_bytes = 65508;
    CHECK(ddnn_mcast_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "packet_bytes") == 0);
    cfg.packet_bytes = 1;
    cfg.message_bytes = 1ull << 32;
    CHECK(ddnn_mcast_config_check(&cfg, &field) == DDNN_ERR_RANGE);
    CHECK(field && strcmp(field, "message_bytes") == 0);

    net n;
    setup(&n, 2, kNoFault);
    int64_t next;
    CHECK(ddnn_mcast_sender_wake(n.sender, 0, &next) == DDNN_ERR_STATE);
    CHECK(ddnn_mcast_sender_start(n.sender, 0, &next) == DDNN_OK);
    CHECK(ddnn_mcast_sender_start(n.sender, 0, &next) == DDNN_ERR_STATE);
    CHECK(ddnn_mcast_sender_on_nack(n.sender, 0, 2, 0, 1, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_sender_on_nack(n.sender, 0, 0, 9, 2, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_sender_on_nack(n.sender, 0, 0, 0, 0, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_sender_on_done(n.sender, 0, 2, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_receiver_on_data(n.receivers[0], 0, 10, 700, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_receiver_on_data(n.receivers[0], 0, 9, 1400, &next) == DDNN_ERR_RANGE);
    CHECK(ddnn_mcast_receiver_on_data(n.receivers[0], 0, 9, 700, &next) == DDNN_OK);
    teardown(&n);
    ddnn_mcast_sender_callbacks none;
    ddnn_mcast_sender_callbacks_init(&none);
    ddnn_mcast_sender* s = NULL;
    CHECK(ddnn_mcast_sender_new(&s, &cfg, &none, NULL) == DDNN_ERR_INVALID);
}

int
main(void)
{
    RUN(test_lossless);
    RUN(test_lose_one_packet_to_one);
    RUN(test_lose_one_packet_to_all);
    RUN(test_lose_control);
    RUN(test_reorder_and_duplicate);
    RUN(test_heavy_loss);
    RUN(test_bad_use);
    return UNIT_REPORT();
}
