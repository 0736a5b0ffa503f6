/* SPDX-License-Identifier: GPL-2.0-only */
/* The reliable multicast transport's configuration, shared by its sender and receivers. */
#include "ddnn-multicast.h"

#include <stddef.h>

void
ddnn_mcast_config_init(ddnn_mcast_config* cfg,
                       uint64_t message_bytes,
                       uint32_t receivers,
                       uint64_t rate_bps)
{
    cfg->message_bytes = message_bytes;
    cfg->packet_bytes = 1400;
    cfg->receivers = receivers;
    cfg->rate_bps = rate_bps;
    cfg->overhead_bytes = 30; /* UDP 8, IPv4 20, PPP 2 */
    /* Timers in packet times, so that they scale with the link. */
    const int64_t packet_ns
        = rate_bps > 0 ? (int64_t)((cfg->packet_bytes + cfg->overhead_bytes) * 8e9 / rate_bps) : 0;
    cfg->nack_delay_ns = 10 * packet_ns;
    cfg->nack_interval_ns = 100 * packet_ns > 0 ? 100 * packet_ns : 1;
    cfg->probe_ns = cfg->nack_interval_ns;
    cfg->repair_holdoff_ns = 50 * packet_ns;
}

int
ddnn_mcast_config_check(const ddnn_mcast_config* cfg, const char** field)
{
    const char* bad = NULL;
    if (cfg->message_bytes < 1)
        bad = "message_bytes";
    else if (cfg->packet_bytes < 1 || cfg->packet_bytes > 65507)
        bad = "packet_bytes";
    else if ((cfg->message_bytes - 1) / cfg->packet_bytes + 1 > DDNN_MCAST_PACKETS_MAX)
        bad = "message_bytes";
    else if (cfg->receivers < 1 || cfg->receivers > DDNN_MCAST_RECEIVERS_MAX)
        bad = "receivers";
    else if (cfg->rate_bps < 1)
        bad = "rate_bps";
    else if (cfg->repair_holdoff_ns < 0)
        bad = "repair_holdoff_ns";
    else if (cfg->probe_ns < 1)
        bad = "probe_ns";
    else if (cfg->nack_delay_ns < 0)
        bad = "nack_delay_ns";
    else if (cfg->nack_interval_ns < 1)
        bad = "nack_interval_ns";
    if (field)
        *field = bad;
    return bad ? DDNN_ERR_RANGE : DDNN_OK;
}

uint32_t
ddnn_mcast_packets(const ddnn_mcast_config* cfg)
{
    return (uint32_t)((cfg->message_bytes - 1) / cfg->packet_bytes + 1);
}

uint32_t
ddnn_mcast_packet_length(const ddnn_mcast_config* cfg, uint32_t seq)
{
    const uint64_t offset = (uint64_t)seq * cfg->packet_bytes;
    const uint64_t left = cfg->message_bytes - offset;
    return left < cfg->packet_bytes ? (uint32_t)left : cfg->packet_bytes;
}
