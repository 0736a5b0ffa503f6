/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EGRESS_QUEUE_H
#define EGRESS_QUEUE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traffic-control-helper.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The queue disc on every egress of a ddnn topology, built in one place so every
 * topology helper offers the same choices.
 *
 * - PFIFO_FAST: ns-3's PfifoFastQueueDisc, three bands by the packet's priority (from its IP
 *   ToS), LimitPackets for the three bands together; no ECN.
 * - PRIO_RED: a PrioQueueDisc with PfifoFast's priority map, each of its three bands a
 *   RedQueueDisc that marks ECN-capable packets (and drops the others) whenever its
 *   instantaneous queue reaches EcnThresholdPackets (DCTCP's K: RED with a queue weight of 1,
 *   both thresholds at K, not gentle), LimitPackets per band.
 */
struct EgressQueue
{
    enum Kind
    {
        PFIFO_FAST,
        PRIO_RED
    };

    Kind kind{PFIFO_FAST};
    uint32_t limitPackets{1000};
    uint32_t ecnThresholdPackets{65};
    DataRate linkRate{"10Gbps"}; //!< RED's idle-time estimate
    Time linkDelay;

    /** The helper that installs this queue disc on a device. */
    TrafficControlHelper Helper() const;
};

} // namespace ns3

#endif /* EGRESS_QUEUE_H */
