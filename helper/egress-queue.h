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
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-helper.h"

#include <functional>
#include <string>
#include <vector>

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
    /**
     * A queue disc is chosen from a registry of named entries (Register); Kind is the number
     * an entry gets there, which the topologies' QueueDisc attribute holds. The built-in
     * entries have the numbers below.
     */
    enum Kind : int
    {
        PFIFO_FAST,
        PRIO_RED,
        PRIO4
    };

    /** One registered queue disc: its names and how to build it. */
    struct Entry
    {
        std::string name;             //!< as a scenario names it, e.g. "prio4"
        std::string attributeName;    //!< as the QueueDisc attribute names it, e.g. "Prio4"
        std::vector<uint8_t> bandTos; //!< by band: the IP ToS whose packets the band queues
        /** Sets the root queue disc (and its children) of `helper` for the limits of `queue`. */
        std::function<void(const EgressQueue& queue, TrafficControlHelper& helper)> build;
        /** What is wrong with the settings it reads, or "" (none: nothing to check). */
        std::function<std::string(const EgressQueue& queue)> check{};
        /** Whether it reads bandWeights. */
        bool takesBandWeights{false};
        /** Whether it orders packets by their SlackTag: the tenants must put them on. */
        bool readsSlackTags{false};
    };

    /**
     * Adds a queue disc to the choices (of scenarios, and of the topologies' QueueDisc
     * attribute) and returns its number; a name already registered is a DdnnError. Adding
     * one is this call (e.g. in a static initializer of the file that defines it).
     */
    static Kind Register(Entry entry);
    /** The entry registered under number `kind`. */
    static const Entry& Get(Kind kind);
    /** The registered names, in registration order. */
    static std::vector<std::string> Names();
    /** The kind a scenario names ("pfifo-fast", ...); an unregistered name is a DdnnError. */
    static Kind FromScenario(const std::string& name);
    /** Bands of a kind: 3, or 4 for PRIO4. */
    static uint32_t Bands(Kind kind);
    /** The IP ToS whose packets a kind queues in `band` (below Bands(kind)). */
    static uint8_t TosOfBand(Kind kind, uint32_t band);
    /** Adds `bands` classes under `root`, each a FIFO of BandLimit() (for builders). */
    void AddFifoBands(TrafficControlHelper& tch, uint16_t root, uint16_t bands) const;
    /** What is wrong with these settings for `kind` (its entry's check), or "". */
    std::string CheckSettings() const;
    /** The checker of an attribute holding a Kind: every registered attributeName. */
    static Ptr<const AttributeChecker> MakeKindChecker();

    /**
     * The bands of an installed egress queue disc of any kind, in band order: its child queue
     * discs, or its internal queues (PfifoFast). Each has the traces PacketsInQueue and
     * Enqueue (Ptr<const QueueDiscItem>).
     */
    static std::vector<Ptr<Object>> BandQueues(Ptr<QueueDisc> disc);
    /** The packets one band holds: bandLimitPackets, or limitPackets when that is 0. */
    uint32_t BandLimit() const;

    Kind kind{PFIFO_FAST};
    uint32_t limitPackets{1000};
    /**
     * The packets each band holds on its own, 0: none. PfifoFast then becomes its three bands
     * in strict priority (a PrioQueueDisc with its map), each a FIFO of this many; the kinds
     * whose bands are queue discs of their own hold this many instead of limitPackets. The topology
     * helpers set it on the servers' egress only (ServerBandLimitPackets), as hosts have
     * their own, shorter queues than switches.
     */
    uint32_t bandLimitPackets{0};
    uint32_t ecnThresholdPackets{65};
    /** WeightedBands: one weight per band, blank-separated (WeightedBandQueueDisc's Weights). */
    std::string bandWeights{"1 1 1"};
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

    /**
     * Throws DdnnError when `discs` would drop packets before they queue (a Priomap naming a
     * band the disc lacks, QueueDiscBandProblem): called wherever Helper()'s discs go on.
     */
    static void CheckBands(const QueueDiscContainer& discs);
};

} // namespace ns3

#endif /* EGRESS_QUEUE_H */
