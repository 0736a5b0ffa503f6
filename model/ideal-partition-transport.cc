/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ideal-partition-transport.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IdealPartitionTransport");

NS_OBJECT_ENSURE_REGISTERED(IdealPartitionTransport);
[[maybe_unused]] static const bool g_registered
    = PartitionTransport::Register("ideal", &IdealPartitionTransport::GetTypeId);

TypeId
IdealPartitionTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IdealPartitionTransport")
                            .SetParent<PartitionTransport>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<IdealPartitionTransport>()
                            .AddAttribute("DataRate",
                                          "Rate at which the worker sends, one transfer at a time.",
                                          DataRateValue(DataRate("10Gbps")),
                                          MakeDataRateAccessor(&IdealPartitionTransport::m_rate),
                                          MakeDataRateChecker())
                            .AddAttribute("StepLatency",
                                          "Latency added to every transfer.",
                                          TimeValue(MicroSeconds(20)),
                                          MakeTimeAccessor(&IdealPartitionTransport::m_latency),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

IdealPartitionTransport::IdealPartitionTransport() = default;

void
IdealPartitionTransport::DoDispose()
{
    m_peers.clear();
    PartitionTransport::DoDispose();
}

void
IdealPartitionTransport::Open(Ptr<Node>,
                              uint32_t rank,
                              const std::vector<Peer>& sendTo,
                              const std::vector<Peer>&)
{
    NS_LOG_FUNCTION(this << rank);
    m_rank = rank;
    for (const Peer& peer : sendTo)
    {
        if (peer.rank == NETWORK_PEER)
        {
            NotifyFailure("in-network aggregation needs a packet transport (ns3::"
                          "TcpPartitionTransport): the ideal one has no switch to aggregate in");
            return;
        }
        Ptr<IdealPartitionTransport> ideal = DynamicCast<IdealPartitionTransport>(peer.transport);
        if (!ideal)
        {
            NotifyFailure("worker " + std::to_string(peer.rank)
                          + " has no ns3::IdealPartitionTransport to deliver to");
            return;
        }
        m_peers[peer.rank] = ideal;
    }
}

void
IdealPartitionTransport::Send(uint32_t peer, uint64_t bytes)
{
    SendToGroup(std::vector<uint32_t>{peer}, bytes);
}

bool
IdealPartitionTransport::SetMulticast(bool on)
{
    m_multicast = on;
    return true;
}

void
IdealPartitionTransport::SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes)
{
    if (!m_multicast && peers.size() > 1)
    {
        PartitionTransport::SendToGroup(peers, bytes); // a copy to each, one after another
        return;
    }
    // One transfer at a time on the worker's uplink, then the step latency.
    const Time start = Max(Simulator::Now(), m_busyUntil);
    m_busyUntil = start + m_rate.CalculateBytesTxTime(bytes);
    for (uint32_t peer : peers)
    {
        auto it = m_peers.find(peer);
        if (it == m_peers.end())
        {
            NotifyFailure("no path to worker " + std::to_string(peer));
            return;
        }
        NS_LOG_LOGIC("worker " << m_rank << ": " << bytes << " bytes to worker " << peer
                               << " arrive at " << (m_busyUntil + m_latency).As(Time::US));
        Simulator::Schedule(m_busyUntil + m_latency - Simulator::Now(),
                            &IdealPartitionTransport::Arrive,
                            it->second,
                            m_rank,
                            bytes);
    }
}

void
IdealPartitionTransport::Arrive(uint32_t from, uint64_t bytes)
{
    if (!m_closed)
    {
        NotifyReceived(from, bytes);
    }
}

void
IdealPartitionTransport::Close()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_closed = true;
    SilenceFailures();
}

std::string
IdealPartitionTransport::Describe() const
{
    if (m_busyUntil <= Simulator::Now())
    {
        return "";
    }
    return "uplink busy until " + std::to_string(m_busyUntil.GetSeconds()) + " s";
}

} // namespace ns3
