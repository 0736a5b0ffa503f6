/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EGRESS_QUEUE_H
#define EGRESS_QUEUE_H

#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-container.h"
#include "ns3/traffic-control-helper.h"

#include <string>

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
 * - PRIO4: a PrioQueueDisc of four FIFO bands, one per priority a ToS can give, for more
 *   than two tenants: ToS 0x10 band 0, 0x18 band 1, 0x00 band 2, 0x08 band 3 (strict
 *   priority in that order), LimitPackets per band.
 *
 * On a topology of one's own, Install() puts it on every egress in one call:
 * \code
 *   EgressQueue().Install(NodeContainer::GetGlobal()); // PfifoFast, 1000 packets
 * \endcode
 */
struct EgressQueue
{
    enum Kind
    {
        PFIFO_FAST,
        PRIO_RED,
        PRIO4
    };

    /** The kind a scenario names: "pfifo-fast", "prio-red" or "prio4". */
    static Kind FromScenario(const std::string& name);
    /** Bands of a kind: 3, or 4 for PRIO4. */
    static uint32_t Bands(Kind kind);
    /** The IP ToS whose packets a kind queues in `band` (below Bands(kind)). */
    static uint8_t TosOfBand(Kind kind, uint32_t band);
    /** The checker of an attribute holding a Kind: PfifoFast, PrioRed, Prio4. */
    static Ptr<const AttributeChecker> MakeKindChecker();

    Kind kind{PFIFO_FAST};
    uint32_t limitPackets{1000};
    uint32_t ecnThresholdPackets{65};
    DataRate linkRate{"10Gbps"}; //!< RED's idle-time estimate
    Time linkDelay;
    /** Install(): the devices' own transmission queue in packets (0: left as it is). */
    uint32_t devicePackets{1};

    /** The helper that installs this queue disc on a device. */
    TrafficControlHelper Helper() const;

    /**
     * Installs this queue disc as the root queue disc of every device of `nodes` that has a
     * traffic-control layer (an IPv4 stack; loopbacks excluded), replacing the one there:
     * ns-3's default FqCoDel, which Ipv4AddressHelper::Assign installs and which ignores the
     * ToS. Each device's own transmission queue (TxQueue) is set to devicePackets, so that
     * packets wait in the queue disc's bands rather than in one FIFO behind it. Call it after
     * assigning addresses and before Simulator::Run().
     */
    QueueDiscContainer Install(NodeContainer nodes) const;
    /** The same on the given devices. */
    QueueDiscContainer Install(NetDeviceContainer devices) const;
};

} // namespace ns3

#endif /* EGRESS_QUEUE_H */
