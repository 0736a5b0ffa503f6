/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUEUE_METER_H
#define QUEUE_METER_H

#include "ns3/server-topology.h"
#include "ns3/tenant-kind.h"

#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Where a network loses packets, per band of the egress queue discs: drops and the
 * largest backlog of each band at the servers' uplinks and at every switch egress, and the
 * TCP segments each server sends again (retransmissions), on any ServerTopology.
 *
 * A packet's band is the one its queue disc gives it: the disc's Priomap attribute
 * (PrioQueueDisc, WeightedBandQueueDisc) or PfifoFast's fixed map, applied to the packet's
 * socket priority (which a socket's IP ToS sets). A disc with neither leaves its side's
 * figures per band unknown (IsClassified false). A retransmission is a data segment that
 * starts below the highest sequence number its connection (by addresses and ports) has
 * sent; it counts in the band of the sender's uplink disc. Counts and backlogs are taken
 * within [from, until). Construct it after the topology is built and before the simulation
 * runs (it meters the discs from time 0 on); it holds the trace connections.
 */
class QueueMeter
{
  public:
    /** Which egresses a figure is about. */
    enum Side
    {
        SERVERS,  //!< the servers' uplinks
        SWITCHES, //!< every device of every node that is not a server
    };

    /** Meters the network's discs, and every TcpStreamSender's timeouts, within [from, until). */
    QueueMeter(Ptr<ServerTopology> network, Time from, Time until);
    /** Stops hearing the senders' timeouts. */
    ~QueueMeter();
    QueueMeter(const QueueMeter&) = delete;
    QueueMeter& operator=(const QueueMeter&) = delete;

    /** The most bands any disc of a side has (0: the side has no queue disc). */
    uint32_t GetBands(Side side) const;
    /** Whether every disc of a side has a map from priority to band. */
    bool IsClassified(Side side) const;
    /** Packets a side's discs dropped in `band` within the window. */
    uint64_t GetDrops(Side side, uint32_t band) const;
    /** The largest backlog in bytes of `band` of any one disc of a side within the window. */
    uint64_t GetMaxBacklogBytes(Side side, uint32_t band) const;
    /** TCP data segments the servers sent again in `band` within the window. */
    uint64_t GetRetransmissions(uint32_t band) const;
    /** When (ns, in order) a side's discs dropped a packet of `band` within the window. */
    const std::vector<int64_t>& GetDropTimes(Side side, uint32_t band) const;
    /** When (ns, in order) the servers sent a TCP data segment of `band` again. */
    const std::vector<int64_t>& GetRetransmissionTimes(uint32_t band) const;
    /** Retransmission timeouts of the servers' TcpStreamSenders whose packets go to `band`
     * (by their socket's priority and the servers' priority map) within the window. */
    uint64_t GetTimeouts(uint32_t band) const;
    /** When (ns, in order) those timeouts fired. */
    const std::vector<int64_t>& GetTimeoutTimes(uint32_t band) const;
    /** The band of the servers' discs that a tenant's packets of an IP ToS go to; -1: the
     * discs do not say. */
    int GetServerBandOf(uint8_t tos, TenantKind::Tenant tenant) const;

    /** A distributed run: this process's counts (its nodes' discs and connections), as text
     * for MergeRankState in the other processes. */
    std::string GetRankState() const;
    /** Adds another process's GetRankState(): drops and retransmissions add up, the largest
     * backlog is the largest of both. Throws DdnnError on a state of other bands. */
    void MergeRankState(const std::string& state);

  private:
    using Map = std::array<uint16_t, 16>;
    /** One metered queue disc. */
    struct Disc
    {
        Side side;
        std::optional<Map> priomap;
        bool bySlackTag; //!< a LeastSlackQueueDisc: the band is the tag's tenant's
        /** Whether the meter knows the band of a packet. */
        bool
        Classified() const
        {
            return priomap || bySlackTag;
        }
        /** The band of a tenant's packets sent with socket priority `priority`. */
        uint32_t BandOf(uint8_t priority, TenantKind::Tenant tenant) const;
    };
    /** Per side and band. */
    struct Counts
    {
        uint32_t bands{0};
        bool classified{true};
        std::vector<std::vector<int64_t>> drops; //!< [band]: the drops' times (ns)
        std::vector<uint64_t> maxBacklog;
    };
    using ConnectionKey = std::tuple<uint32_t, uint32_t, uint16_t, uint16_t>;

    /** Starts metering the root queue disc of `device`, if it has one (at time 0). */
    void Meter(Ptr<NetDevice> device, Side side);
    /** Meter() on each of `devices`, once every node is initialized. */
    void MeterAll(std::vector<std::pair<Ptr<NetDevice>, Side>> devices);
    bool InWindow() const;
    static void Dropped(QueueMeter* meter, size_t disc, Ptr<const QueueDiscItem> item);
    static void TimedOut(QueueMeter* meter, Ptr<Socket> socket, TenantKind::Tenant tenant);
    static void Backlog(QueueMeter* meter, Side side, uint32_t band, uint32_t, uint32_t bytes);
    static void Sent(QueueMeter* meter,
                     size_t disc,
                     const Ipv4Header& header,
                     Ptr<const Packet> packet,
                     uint32_t interface);
    /** The band `disc` gives a packet (its priority tag through the disc's map, or its
     * SlackTag's tenant). */
    uint32_t BandOf(size_t disc, Ptr<const Packet> packet) const;

    Time m_from;
    Time m_until;
    std::vector<Disc> m_discs;
    std::array<Counts, 2> m_counts;                      //!< [side]
    std::vector<std::vector<int64_t>> m_retransmissions; //!< [band]: their times (ns)
    std::vector<std::vector<int64_t>> m_timeouts;        //!< [band]: their times (ns)
    std::map<ConnectionKey, SequenceNumber32> m_highest; //!< per connection: next new byte
};

} // namespace ns3

#endif /* QUEUE_METER_H */
