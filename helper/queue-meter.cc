/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "queue-meter.h"

#include "egress-queue.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/least-slack-queue-disc.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/one-line-error.h"
#include "ns3/pfifo-fast-queue-disc.h"
#include "ns3/prio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-stream-sender.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QueueMeter");

namespace
{

/** PfifoFast's map from priority to band (fixed in ns-3's pfifo-fast-queue-disc.cc). */
constexpr std::array<uint16_t, 16> kPfifoFastMap{1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

/** The map from priority to band of a disc: its Priomap attribute, or PfifoFast's. */
std::optional<std::array<uint16_t, 16>>
PriomapOf(Ptr<QueueDisc> disc)
{
    PriomapValue value;
    if (disc->GetAttributeFailSafe("Priomap", value))
    {
        return value.Get();
    }
    if (DynamicCast<PfifoFastQueueDisc>(disc))
    {
        return kPfifoFastMap;
    }
    return std::nullopt;
}

} // namespace

QueueMeter::QueueMeter(Ptr<ServerTopology> network, Time from, Time until)
    : m_from(from)
    , m_until(until)
{
    NS_LOG_FUNCTION(this << from << until);
    TcpStreamSender::SetTimeoutObserver(MakeBoundCallback(&QueueMeter::TimedOut, this));
    std::vector<std::pair<Ptr<NetDevice>, Side>> devices;
    std::vector<Ptr<Node>> servers;
    for (uint32_t i = 0; i < network->GetServerCount(); ++i)
    {
        servers.push_back(network->GetServer(i));
        devices.emplace_back(network->GetServerDevice(i), SERVERS);
    }
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        if (std::find(servers.begin(), servers.end(), *node) != servers.end())
        {
            continue;
        }
        for (uint32_t d = 0; d < (*node)->GetNDevices(); ++d)
        {
            devices.emplace_back((*node)->GetDevice(d), SWITCHES);
        }
    }
    // Some discs (PfifoFast) create their bands when their node is initialized, an event at
    // time 0 scheduled with the node: this one comes after it.
    // (A member function, not a lambda: ns-3.35's Schedule takes no lambda.)
    Simulator::Schedule(Seconds(0), &QueueMeter::MeterAll, this, devices);
}

void
QueueMeter::MeterAll(std::vector<std::pair<Ptr<NetDevice>, Side>> devices)
{
    for (const auto& [device, side] : devices)
    {
        Meter(device, side);
    }
    m_retransmissions.assign(m_counts[SERVERS].bands, {});
    m_timeouts.assign(m_counts[SERVERS].bands, {});
}

void
QueueMeter::Meter(Ptr<NetDevice> device, Side side)
{
    Ptr<Node> node = device->GetNode();
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (!root)
    {
        return;
    }
    const size_t index = m_discs.size();
    m_discs.push_back({side, PriomapOf(root), DynamicCast<LeastSlackQueueDisc>(root) != nullptr});
    Counts& counts = m_counts[side];
    counts.classified = counts.classified && m_discs.back().Classified();
    const std::vector<Ptr<Object>> bands = EgressQueue::BandQueues(root);
    counts.bands = std::max<uint32_t>(counts.bands, bands.size());
    counts.drops.resize(counts.bands);
    counts.maxBacklog.resize(counts.bands, 0);
    root->TraceConnectWithoutContext("Drop", MakeBoundCallback(&QueueMeter::Dropped, this, index));
    for (uint32_t b = 0; b < bands.size(); ++b)
    {
        bands[b]->TraceConnectWithoutContext(
            "BytesInQueue", MakeBoundCallback(&QueueMeter::Backlog, this, side, b));
    }
    if (side == SERVERS)
    {
        // What the server's own sockets send (once per segment, before its queue disc).
        if (Ptr<Ipv4L3Protocol> ip = node->GetObject<Ipv4L3Protocol>())
        {
            ip->TraceConnectWithoutContext("SendOutgoing",
                                           MakeBoundCallback(&QueueMeter::Sent, this, index));
        }
    }
    NS_LOG_INFO("node " << node->GetId() << " device " << device->GetIfIndex() << ": "
                        << bands.size() << " bands, "
                        << (m_discs.back().Classified() ? "classified" : "no priority map"));
}

bool
QueueMeter::InWindow() const
{
    const Time now = Simulator::Now();
    return now >= m_from && now < m_until;
}

uint32_t
QueueMeter::BandOf(size_t disc, Ptr<const Packet> packet) const
{
    if (m_discs[disc].bySlackTag)
    {
        return LeastSlackQueueDisc::BandOf(packet);
    }
    // As PrioQueueDisc and PfifoFast classify: the priority tag, 0 without one.
    uint8_t priority = 0;
    SocketPriorityTag tag;
    if (packet->PeekPacketTag(tag))
    {
        priority = tag.GetPriority();
    }
    return (*m_discs[disc].priomap)[priority & 0x0f];
}

uint32_t
QueueMeter::Disc::BandOf(uint8_t priority, TenantKind::Tenant tenant) const
{
    return bySlackTag ? LeastSlackQueueDisc::BandOfTenant(tenant) : (*priomap)[priority & 0x0f];
}

void
QueueMeter::Dropped(QueueMeter* meter, size_t disc, Ptr<const QueueDiscItem> item)
{
    if (!meter->InWindow() || !meter->m_discs[disc].Classified())
    {
        return;
    }
    Counts& counts = meter->m_counts[meter->m_discs[disc].side];
    const uint32_t band = meter->BandOf(disc, item->GetPacket());
    if (band < counts.bands)
    {
        counts.drops[band].push_back(Simulator::Now().GetNanoSeconds());
    }
    NS_LOG_LOGIC("drop in band " << band << " of disc " << disc);
}

void
QueueMeter::Backlog(QueueMeter* meter, Side side, uint32_t band, uint32_t, uint32_t bytes)
{
    if (meter->InWindow())
    {
        uint64_t& most = meter->m_counts[side].maxBacklog[band];
        most = std::max<uint64_t>(most, bytes);
    }
}

void
QueueMeter::Sent(
    QueueMeter* meter, size_t disc, const Ipv4Header& header, Ptr<const Packet> packet, uint32_t)
{
    if (header.GetProtocol() != 6 || !meter->m_discs[disc].Classified())
    {
        return;
    }
    // The TCP header's ports, sequence number and data offset, read without parsing options.
    uint8_t tcp[13];
    if (packet->CopyData(tcp, sizeof tcp) < sizeof tcp)
    {
        return;
    }
    const uint32_t headerBytes = (tcp[12] >> 4) * 4;
    if (packet->GetSize() <= headerBytes)
    {
        return; // no data: a pure ACK, SYN or FIN
    }
    const SequenceNumber32 start((uint32_t{tcp[4]} << 24) | (uint32_t{tcp[5]} << 16)
                                 | (uint32_t{tcp[6]} << 8) | tcp[7]);
    const SequenceNumber32 end = start + (packet->GetSize() - headerBytes);
    const ConnectionKey key{header.GetSource().Get(),
                            header.GetDestination().Get(),
                            static_cast<uint16_t>((tcp[0] << 8) | tcp[1]),
                            static_cast<uint16_t>((tcp[2] << 8) | tcp[3])};
    auto [highest, added] = meter->m_highest.try_emplace(key, end);
    if (added)
    {
        return;
    }
    if (start < highest->second)
    {
        const uint32_t band = meter->BandOf(disc, packet);
        if (meter->InWindow() && band < meter->m_retransmissions.size())
        {
            meter->m_retransmissions[band].push_back(Simulator::Now().GetNanoSeconds());
        }
        NS_LOG_LOGIC("retransmission of " << start << " in band " << band);
    }
    highest->second = std::max(highest->second, end);
}

uint32_t
QueueMeter::GetBands(Side side) const
{
    return m_counts[side].bands;
}

bool
QueueMeter::IsClassified(Side side) const
{
    return m_counts[side].classified;
}

QueueMeter::~QueueMeter()
{
    TcpStreamSender::SetTimeoutObserver(TcpStreamSender::TimeoutObserver());
}

void
QueueMeter::TimedOut(QueueMeter* meter, Ptr<Socket> socket, TenantKind::Tenant tenant)
{
    if (!meter->InWindow())
    {
        return;
    }
    // The band of the socket's packets: the priority map of a server's disc (all alike).
    for (size_t d = 0; d < meter->m_discs.size(); ++d)
    {
        const Disc& disc = meter->m_discs[d];
        if (disc.side == SERVERS && disc.Classified())
        {
            const uint32_t band = disc.BandOf(socket->GetPriority(), tenant);
            if (band < meter->m_timeouts.size())
            {
                meter->m_timeouts[band].push_back(Simulator::Now().GetNanoSeconds());
            }
            NS_LOG_LOGIC("timeout in band " << band);
            return;
        }
    }
}

int
QueueMeter::GetServerBandOf(uint8_t tos, TenantKind::Tenant tenant) const
{
    for (const Disc& disc : m_discs)
    {
        if (disc.side == SERVERS && disc.Classified())
        {
            return disc.BandOf(Socket::IpTos2Priority(tos), tenant);
        }
    }
    return -1;
}

uint64_t
QueueMeter::GetTimeouts(uint32_t band) const
{
    return m_timeouts.at(band).size();
}

const std::vector<int64_t>&
QueueMeter::GetTimeoutTimes(uint32_t band) const
{
    return m_timeouts.at(band);
}

uint64_t
QueueMeter::GetDrops(Side side, uint32_t band) const
{
    return m_counts[side].drops.at(band).size();
}

const std::vector<int64_t>&
QueueMeter::GetDropTimes(Side side, uint32_t band) const
{
    return m_counts[side].drops.at(band);
}

const std::vector<int64_t>&
QueueMeter::GetRetransmissionTimes(uint32_t band) const
{
    return m_retransmissions.at(band);
}

uint64_t
QueueMeter::GetMaxBacklogBytes(Side side, uint32_t band) const
{
    return m_counts[side].maxBacklog.at(band);
}

uint64_t
QueueMeter::GetRetransmissions(uint32_t band) const
{
    return m_retransmissions.at(band).size();
}

namespace
{

/** Event times as text: their count, then each. */
void
WriteTimes(std::ostream& os, const std::vector<int64_t>& times)
{
    os << " " << times.size();
    for (int64_t t : times)
    {
        os << " " << t;
    }
}

/** Adds the times WriteTimes wrote to `times`, keeping them in order. */
void
MergeTimes(std::istream& in, std::vector<int64_t>& times)
{
    size_t count = 0;
    if (!(in >> count) || count > (size_t{1} << 32))
    {
        throw DdnnError("QueueMeter::MergeRankState: a truncated state");
    }
    const size_t before = times.size();
    for (size_t k = 0; k < count && in; ++k)
    {
        int64_t t = 0;
        in >> t;
        times.push_back(t);
    }
    std::inplace_merge(times.begin(), times.begin() + before, times.end());
}

} // namespace

std::string
QueueMeter::GetRankState() const
{
    std::ostringstream os;
    for (const Counts& counts : m_counts)
    {
        os << counts.bands << " " << counts.classified;
        for (uint32_t b = 0; b < counts.bands; ++b)
        {
            WriteTimes(os, counts.drops[b]);
            os << " " << counts.maxBacklog[b];
        }
        os << "\n";
    }
    os << m_retransmissions.size();
    for (const auto& times : m_retransmissions)
    {
        WriteTimes(os, times);
    }
    for (const auto& times : m_timeouts)
    {
        WriteTimes(os, times);
    }
    os << "\n";
    return os.str();
}

void
QueueMeter::MergeRankState(const std::string& state)
{
    std::istringstream in(state);
    for (Counts& counts : m_counts)
    {
        uint32_t bands = 0;
        bool classified = false;
        if (!(in >> bands >> classified) || bands != counts.bands)
        {
            throw DdnnError("QueueMeter::MergeRankState: a state of other bands");
        }
        counts.classified = counts.classified && classified;
        for (uint32_t b = 0; b < bands; ++b)
        {
            uint64_t backlog = 0;
            MergeTimes(in, counts.drops[b]);
            in >> backlog;
            counts.maxBacklog[b] = std::max(counts.maxBacklog[b], backlog);
        }
    }
    size_t bands = 0;
    if (!(in >> bands) || bands != m_retransmissions.size())
    {
        throw DdnnError("QueueMeter::MergeRankState: a state of other bands");
    }
    for (auto& times : m_retransmissions)
    {
        MergeTimes(in, times);
    }
    for (auto& times : m_timeouts)
    {
        MergeTimes(in, times);
    }
    if (in.fail())
    {
        throw DdnnError("QueueMeter::MergeRankState: a truncated state");
    }
}

} // namespace ns3
