/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-partition-transport.h"

#include "ipv4-nodes.h"
#include "multicast-routes.h"
#include "ns3-compat.h"
#include "one-line-error.h"
#include "tenant-congestion-control.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/integer.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpPartitionTransport");
NS_OBJECT_ENSURE_REGISTERED(TcpPartitionTransport);
[[maybe_unused]] static const bool g_registered
    = PartitionTransport::Register("tcp", &TcpPartitionTransport::GetTypeId);

TypeId
TcpPartitionTransport::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TcpPartitionTransport")
              .SetParent<PartitionTransport>()
              .SetGroupName("Ddnn")
              .AddConstructor<TcpPartitionTransport>()
              .AddAttribute("Port",
                            "TCP port on which every worker of the job accepts its peers; below "
                            "ns-3's ephemeral ports (49152 on), so that it names the tenant.",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&TcpPartitionTransport::m_port),
                            MakeUintegerChecker<uint16_t>(1, 49151))
              .AddAttribute("Tos",
                            "IP ToS of the job's sockets, data and ACKs (0x10 -> PfifoFast band "
                            "0, 0x00 -> band 1, 0x08 -> band 2).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&TcpPartitionTransport::m_tos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("AckTos",
                            "IP ToS of the ACKs of incoming data (the accepted sockets'); -1: "
                            "Tos. A job whose priority policy raises some transfers sets it to "
                            "their ToS, so that their ACKs are not held behind a lower band.",
                            IntegerValue(-1),
                            MakeIntegerAccessor(&TcpPartitionTransport::m_ackTos),
                            MakeIntegerChecker<int>(-1, 255))
              .AddAttribute("SendChunkBytes",
                            "Most bytes written to a TCP socket at once.",
                            UintegerValue(65536),
                            MakeUintegerAccessor(&TcpPartitionTransport::m_chunkBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("CongestionControl",
                            "The job's own TCP congestion control (a TcpCongestionOps TypeId name, "
                            "e.g. ns3::TcpDctcp); empty: the stack's (TcpL4Protocol::SocketType).",
                            StringValue(""),
                            MakeStringAccessor(&TcpPartitionTransport::SetCongestionControl,
                                               &TcpPartitionTransport::GetCongestionControl),
                            MakeStringChecker())
              .AddAttribute("MinRto",
                            "The job's own TCP minimum retransmission timeout (TcpSocketBase's "
                            "MinRto on its sockets), 0 or at least 10 us; 0: the stack's.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&TcpPartitionTransport::m_minRto),
                            MakeTimeChecker(Seconds(0), Seconds(100)))
              .AddAttribute("SlackTags",
                            "Whether every TCP segment carries a SlackTag: data the running "
                            "buffer's deadline, ACKs the deadline of what they acknowledge (for "
                            "a LeastSlackQueueDisc; the UDP paths of multicast and in-network "
                            "aggregation stay untagged).",
                            BooleanValue(false),
                            MakeBooleanAccessor(&TcpPartitionTransport::m_slackTags),
                            MakeBooleanChecker());
    return tid;
}

TcpPartitionTransport::TcpPartitionTransport() = default;

void
TcpPartitionTransport::SetCongestionControl(std::string typeName)
{
    m_congestionControl
        = ValidCongestionControl("ns3::TcpPartitionTransport::CongestionControl", typeName);
}

std::string
TcpPartitionTransport::GetCongestionControl() const
{
    return m_congestionControl;
}

void
TcpPartitionTransport::DoDispose()
{
    m_groupSender = nullptr;
    m_groupReceiver = nullptr;
    m_aggregation = nullptr;
    m_senders.clear();
    m_accepted.clear();
    m_listenSocket = nullptr;
    m_node = nullptr;
    PartitionTransport::DoDispose();
}

void
TcpPartitionTransport::Open(Ptr<Node> node,
                            uint32_t rank,
                            const std::vector<Peer>& sendTo,
                            const std::vector<Peer>& receiveFrom)
{
    NS_LOG_FUNCTION(this << rank);
    m_rank = rank;
    WarnIfEcnLost(node, m_congestionControl, m_tos, "the training job");
    m_marker = m_slackTags ? Create<SlackMarker>(TenantKind::TRAINING) : nullptr;
    for (const Peer& peer : receiveFrom)
    {
        if (peer.rank != NETWORK_PEER)
        {
            m_expected[peer.address] = peer.rank;
        }
    }
    if (!m_expected.empty())
    {
        // Accepted sockets inherit the ToS, so the ACKs of incoming data ride AckTos's band.
        InetSocketAddress local(Ipv4Address::GetAny(), m_port);
        m_listenSocket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        UseCongestionControl(m_listenSocket, m_congestionControl);
        compat::SetTos(
            m_listenSocket, local, m_ackTos < 0 ? m_tos : static_cast<uint8_t>(m_ackTos));
        if (m_marker)
        {
            m_marker->Attach(m_listenSocket); // accepted sockets inherit it: the ACKs
        }
        UseMinRto(m_listenSocket);
        if (m_listenSocket->Bind(local) == -1 || m_listenSocket->Listen() == -1)
        {
            NotifyFailure("cannot listen on TCP port " + std::to_string(m_port));
            return;
        }
        m_listenSocket->SetAcceptCallback(MakeCallback(&TcpPartitionTransport::AcceptRequest, this),
                                          MakeCallback(&TcpPartitionTransport::Accepted, this));
        if (m_multicast)
        {
            m_groupReceiver = CreateObject<MulticastReceiver>();
            m_groupReceiver->SetAttribute("Port", UintegerValue(m_port));
            m_groupReceiver->SetAttribute("Tos", UintegerValue(m_tos));
            m_groupReceiver->Setup(node, rank);
            m_groupReceiver->SetReceiveCallback(
                MakeCallback(&TcpPartitionTransport::GroupReceived, this));
        }
    }
    m_node = node;
    for (const Peer& peer : sendTo)
    {
        if (peer.rank == NETWORK_PEER)
        {
            OpenAggregation(peer);
            continue;
        }
        m_sendTo[peer.rank] = peer.address;
        Connect(peer.rank, m_tos);
    }
}

void
TcpPartitionTransport::OpenAggregation(const Peer& peer)
{
    if (!peer.lease)
    {
        NotifyFailure(
            "in-network aggregation: no switch lent the job slots (AggregationHelper::Join)");
        return;
    }
    m_aggregation = CreateObject<AggregationClient>();
    try
    {
        m_aggregation->Setup(m_node, peer.lease, m_rank, m_port);
    }
    catch (const DdnnError& e)
    {
        NotifyFailure(e.what());
        return;
    }
    m_aggregation->SetReceiveCallback(
        MakeCallback(&TcpPartitionTransport::AggregateReceived, this));
    m_aggregation->SetFailureCallback(MakeCallback(&TcpPartitionTransport::NotifyFailure, this));
}

Ptr<AggregationClient>
TcpPartitionTransport::GetAggregationClient() const
{
    return m_aggregation;
}

void
TcpPartitionTransport::AggregateReceived(uint64_t bytes)
{
    if (!m_closed)
    {
        NotifyReceived(NETWORK_PEER, bytes);
    }
}

Ptr<TcpStreamSender>
TcpPartitionTransport::Connect(uint32_t peer, uint8_t tos)
{
    NS_LOG_DEBUG("worker " << m_rank << ": opens a connection to worker " << peer << " at ToS "
                           << +tos);
    InetSocketAddress remote(m_sendTo.at(peer), m_port);
    Ptr<Socket> socket = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    UseCongestionControl(socket, m_congestionControl);
    compat::SetTos(socket, remote, tos);
    UseMinRto(socket);
    if (m_marker)
    {
        m_marker->Attach(socket);
    }
    socket->Bind();
    socket->SetCloseCallbacks(MakeCallback(&TcpPartitionTransport::HandleClose, this),
                              MakeCallback(&TcpPartitionTransport::HandleClose, this));
    Ptr<TcpStreamSender> sender
        = Create<TcpStreamSender>(socket, m_chunkBytes, TenantKind::TRAINING);
    m_senders[{peer, tos}] = sender;
    sender->Connect(remote, MakeCallback(&TcpPartitionTransport::ConnectFailed, this));
    return sender;
}

void
TcpPartitionTransport::Send(uint32_t peer, uint64_t bytes)
{
    const uint8_t tos = m_bufferTos < 0 ? m_tos : static_cast<uint8_t>(m_bufferTos);
    if (peer == NETWORK_PEER && m_aggregation)
    {
        m_aggregation->SetTos(tos);
        m_aggregation->Reduce(bytes);
        return;
    }
    if (m_sendTo.find(peer) == m_sendTo.end())
    {
        NotifyFailure("no connection to worker " + std::to_string(peer));
        return;
    }
    auto it = m_senders.find({peer, tos});
    Ptr<TcpStreamSender> sender = it != m_senders.end() ? it->second : Connect(peer, tos);
    if (sender->GetSocket()->GetIpTos() != tos)
    {
        sender->GetSocket()->SetIpTos(tos); // SetInFlightTos had moved it
    }
    sender->Add(bytes);
}

Ipv4Address
TcpPartitionTransport::Group() const
{
    return Ipv4Address((239u << 24) | (192u << 16) | m_port);
}

bool
TcpPartitionTransport::OpenGroup(const std::vector<uint32_t>& peers)
{
    NodeContainer members;
    const std::map<Ipv4Address, Ptr<Node>> nodes = NodesByIpv4Address();
    for (uint32_t i = 0; i < peers.size(); ++i)
    {
        auto it = m_sendTo.find(peers[i]);
        if (peers[i] != i || it == m_sendTo.end())
        {
            NotifyFailure("a multicast group is ranks 0..n-1 of the peers, got rank "
                          + std::to_string(peers[i]) + " at " + std::to_string(i));
            return false;
        }
        auto member = nodes.find(it->second);
        if (member == nodes.end())
        {
            NotifyFailure("no node has worker " + std::to_string(peers[i]) + "'s address");
            return false;
        }
        members.Add(member->second);
    }
    try
    {
        MulticastRoutes::Add(m_node, Group(), members);
    }
    catch (const DdnnError& e)
    {
        NotifyFailure(e.what());
        return false;
    }
    m_groupSender = CreateObject<MulticastSender>();
    m_groupSender->SetAttribute("Port", UintegerValue(m_port));
    m_groupSender->Setup(m_node, Group(), peers.size());
    NS_LOG_DEBUG("worker " << m_rank << ": multicasts to " << Group() << ", " << peers.size()
                           << " receivers");
    return true;
}

bool
TcpPartitionTransport::SetMulticast(bool on)
{
    m_multicast = on;
    return true;
}

void
TcpPartitionTransport::SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes)
{
    if (!m_multicast)
    {
        PartitionTransport::SendToGroup(peers, bytes);
        return;
    }
    if (!m_groupSender && !OpenGroup(peers))
    {
        return;
    }
    m_groupSender->SetTos(m_bufferTos < 0 ? m_tos : static_cast<uint8_t>(m_bufferTos));
    m_groupSender->Send(bytes);
}

void
TcpPartitionTransport::GroupReceived(Ipv4Address from, uint32_t, uint64_t bytes)
{
    auto it = m_expected.find(from);
    if (it != m_expected.end() && !m_closed)
    {
        NotifyReceived(it->second, bytes);
    }
}

void
TcpPartitionTransport::SetBufferTos(int tos)
{
    if (tos != m_bufferTos)
    {
        NS_LOG_DEBUG("worker " << m_rank << ": priority changes to ToS "
                               << (tos < 0 ? +m_tos : tos));
    }
    m_bufferTos = tos;
}

void
TcpPartitionTransport::UseMinRto(Ptr<Socket> socket) const
{
    if (!m_minRto.IsZero())
    {
        if (m_minRto < MicroSeconds(10))
        {
            throw DdnnError("ns3::TcpPartitionTransport::MinRto: expected 0 or at least 10 us "
                            "(the floor that bounds the timers' events), got "
                            + std::to_string(m_minRto.GetNanoSeconds()) + " ns");
        }
        socket->SetAttribute("MinRto", TimeValue(m_minRto));
    }
}

void
TcpPartitionTransport::SetBufferDeadline(int64_t deadlineNs)
{
    if (m_marker)
    {
        m_marker->SetDeadline(deadlineNs);
    }
}

void
TcpPartitionTransport::SetInFlightTos(int tos)
{
    SetBufferTos(tos);
    const uint8_t now = tos < 0 ? m_tos : static_cast<uint8_t>(tos);
    // ns-3's TCP tags each segment with the socket's ToS when it sends it (retransmissions
    // too), so what the socket still holds leaves at the new ToS.
    for (auto& entry : m_senders)
    {
        entry.second->GetSocket()->SetIpTos(now);
    }
    if (m_groupSender)
    {
        m_groupSender->SetTos(now);
    }
    if (m_aggregation)
    {
        m_aggregation->SetTos(now);
    }
}

void
TcpPartitionTransport::Close()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_closed = true;
    SilenceFailures();
    for (auto& entry : m_senders)
    {
        entry.second->Close();
    }
    for (auto& entry : m_accepted)
    {
        entry.first->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        entry.first->Close();
    }
    if (m_listenSocket)
    {
        m_listenSocket->Close();
    }
    m_senders.clear();
    m_accepted.clear();
    m_listenSocket = nullptr;
    for (Ptr<Object> group :
         {Ptr<Object>(m_groupSender), Ptr<Object>(m_groupReceiver), Ptr<Object>(m_aggregation)})
    {
        if (group)
        {
            group->Dispose();
        }
    }
    m_groupSender = nullptr;
    m_groupReceiver = nullptr;
}

void
TcpPartitionTransport::ConnectFailed(Ptr<TcpStreamSender> sender)
{
    for (const auto& entry : m_senders)
    {
        if (entry.second == sender)
        {
            NS_LOG_WARN("worker " << m_rank << ": the connection to worker " << entry.first.first
                                  << " failed");
            NotifyFailure("connection to worker " + std::to_string(entry.first.first) + " failed");
            return;
        }
    }
}

bool
TcpPartitionTransport::AcceptRequest(Ptr<Socket>, const Address& from)
{
    // Expected peers only; each may open one connection per ToS it sends at.
    return m_expected.count(InetSocketAddress::ConvertFrom(from).GetIpv4()) > 0;
}

void
TcpPartitionTransport::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_accepted[socket] = m_expected.at(InetSocketAddress::ConvertFrom(from).GetIpv4());
    NS_LOG_DEBUG("worker " << m_rank << ": accepted a connection from worker "
                           << m_accepted[socket]);
    socket->SetRecvCallback(MakeCallback(&TcpPartitionTransport::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&TcpPartitionTransport::HandleClose, this),
                              MakeCallback(&TcpPartitionTransport::HandleClose, this));
}

void
TcpPartitionTransport::HandleRead(Ptr<Socket> socket)
{
    auto it = m_accepted.find(socket);
    if (it == m_accepted.end())
    {
        return;
    }
    const uint32_t from = it->second;
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        NotifyReceived(from, packet->GetSize());
        if (m_closed)
        {
            return; // the receiver ended the job
        }
    }
}

void
TcpPartitionTransport::HandleClose(Ptr<Socket> socket)
{
    if (!m_closed)
    {
        NS_LOG_WARN("worker " << m_rank << ": connection " << PeerName(socket) << " closed");
        NotifyFailure("connection " + PeerName(socket) + " closed");
    }
}

std::string
TcpPartitionTransport::PeerName(Ptr<Socket> socket) const
{
    for (const auto& entry : m_senders)
    {
        if (entry.second->GetSocket() == socket)
        {
            return "to worker " + std::to_string(entry.first.first);
        }
    }
    auto it = m_accepted.find(socket);
    return it != m_accepted.end() ? "from worker " + std::to_string(it->second)
                                  : "to an unknown peer";
}

std::string
TcpPartitionTransport::Describe() const
{
    std::ostringstream os;
    const char* separator = "";
    if (m_groupSender && m_groupSender->GetPending() > 0)
    {
        os << m_groupSender->GetPending() << " multicast messages to " << Group()
           << " not yet complete";
        separator = ", ";
    }
    if (m_aggregation && m_aggregation->GetPending() > 0)
    {
        const AggregationClient::Stats s = m_aggregation->GetStats();
        os << separator << "a gradient at the aggregating switch (" << s.results << " results of "
           << s.chunks << " chunks sent so far)";
        separator = ", ";
    }
    for (const auto& entry : m_senders)
    {
        if (entry.second->IsConnected() && entry.second->GetPending() == 0)
        {
            continue;
        }
        os << separator << entry.second->GetPending() << " bytes wait for the socket to worker "
           << entry.first.first << " at ToS " << static_cast<int>(entry.first.second)
           << (entry.second->IsConnected() ? "" : " (not connected)");
        separator = ", ";
    }
    return os.str();
}

} // namespace ns3
