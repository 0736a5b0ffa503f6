/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-transport-profile.h"

#include <string.h>

/* Most values one profile names, with the NULL that ends them. */
#define VALUES_MAX 20

typedef struct
{
    const char* name;
    const char* values[VALUES_MAX]; /* "attribute=value", NULL-terminated */
} transport_profile;

/*
 * ddnn's own (the defaults): ns-3's current TCP (Cubic, PRR, 10 segments of initial window)
 * with timers for a data center's microsecond RTTs rather than the Internet's.
 */
#define DDNN_TUNED_TRANSPORT_VALUES \
    "congestion-control=Cubic", "training-congestion-control=same", \
        "background-congestion-control=same", "segment-size=1448", "socket-buffer-bytes=524288", \
        "host-band-packets=0", "initial-cwnd=10", "loss-recovery=prr", "min-rto-ms=5", \
        "initial-rto-ms=10", "clock-granularity-us=10", "del-ack-timeout-us=200", \
        "del-ack-count=2", "max-seg-lifetime-ms=5", "send-chunk-bytes=65536", \
        "background-acks-in-data-band=true"

/*
 * The thesis's ns-3 code (hgao10/ns3 on ns-3.30), values only: ns-3.30's default congestion
 * control and its only loss recovery (PRR came in 3.32); 1380-byte segments and 32 MiB socket
 * buffers; its timers are multiples of a "worst-case RTT" W = 100 x hops x (3 packets of 1502
 * bytes at the line rate + the link delay), which for its 8 workers (16 hops) at 10 Gbit/s and
 * 10 us is 21.768 ms: minimum RTO 1.5 W, initial RTO 2 W, delayed-ACK timeout 0.2 W, segment
 * lifetime 5 W, 1 ns clock; its servers' PfifoFast bands each an internal queue of ns-3's
 * default 100 packets; sends of at most 100,000 bytes; background sinks bound without a ToS,
 * so their ACKs go at ToS 0 (see doc/validation.rst, Differences to the thesis's setup).
 */
#define DDNN_THESIS_TRANSPORT_VALUES \
    "congestion-control=NewReno", "loss-recovery=classic", "segment-size=1380", \
        "socket-buffer-bytes=33554432", "host-band-packets=100", "min-rto-ms=32.652", \
        "initial-rto-ms=43.535", "clock-granularity-us=0.001", "del-ack-timeout-us=4353.5", \
        "del-ack-count=2", "max-seg-lifetime-ms=108.84", "send-chunk-bytes=100000", \
        "background-acks-in-data-band=false"

/*
 * A Linux host's TCP (the seed papers' testbeds): Cubic, 200 ms minimum RTO (TCP_RTO_MIN),
 * 1 s initial RTO (RFC 6298), 40 ms delayed-ACK timeout (TCP_DELACK_MIN), a 4 ms clock
 * (HZ 250) and 6 MiB buffers (tcp_rmem's maximum; Linux tunes up to it); the rest tuned's.
 */
#define DDNN_LINUX_TRANSPORT_VALUES \
    "min-rto-ms=200", "initial-rto-ms=1000", "del-ack-timeout-us=40000", \
        "clock-granularity-us=4000", "socket-buffer-bytes=6291456"

/* The tuned profile first: the others fall back to it. */
static const transport_profile profiles[] = {
    {DDNN_TRANSPORT_DEFAULT_PROFILE, {DDNN_TUNED_TRANSPORT_VALUES, NULL}},
    {"thesis", {DDNN_THESIS_TRANSPORT_VALUES, NULL}},
    {"linux", {DDNN_LINUX_TRANSPORT_VALUES, NULL}},
};
#define PROFILE_COUNT (sizeof profiles / sizeof profiles[0])

/* The value `profile` names for `attribute`, or NULL. */
static const char*
named_value(const transport_profile* profile, const char* attribute)
{
    const size_t n = strlen(attribute);
    size_t k;
    for (k = 0; profile->values[k]; k++)
        if (strncmp(profile->values[k], attribute, n) == 0 && profile->values[k][n] == '=')
            return profile->values[k] + n + 1;
    return NULL;
}

const char*
ddnn_transport_profile_value(const char* name, const char* attribute)
{
    size_t i;
    for (i = 0; name && attribute && i < PROFILE_COUNT; i++)
        if (strcmp(profiles[i].name, name) == 0)
        {
            const char* value = named_value(&profiles[i], attribute);
            return value ? value : named_value(&profiles[0], attribute);
        }
    return NULL;
}

const char*
ddnn_transport_profile_name(size_t i)
{
    return i < PROFILE_COUNT ? profiles[i].name : NULL;
}
