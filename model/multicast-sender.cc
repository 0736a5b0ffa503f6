/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-sender.h"

#include "ddnn-multicast.h"
#include "multicast-header.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastSender");

NS_OBJECT_ENSURE_REGISTERED(MulticastSender);

namespace
{

void
Add(MulticastSender::Stats& total, const ddnn_mcast_sender_stats& s)
{
    total.originals += s.originals;
    total.repairs += s.repairs;
    total.probes += s.probes;
    total.bytes += s.bytes;
    total.nacks += s.nacks;
}

} // namespace

TypeId
MulticastSender::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MulticastSender")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<MulticastSender>()
              .AddAttribute("Port",
                            "UDP port of the group (the receivers' MulticastReceiver Port).",
                            UintegerValue(7000),
                            MakeUintegerAccessor(&MulticastSender::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Tos",
                            "IP ToS of the data and repairs (SetTos changes it).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&MulticastSender::m_tos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("Rate",
                            "Pace of every packet, headers included; 0: the data rate of the "
                            "node's first device that has one (its link).",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&MulticastSender::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("PacketBytes",
                            "Payload bytes per packet (with the 23-byte header, UDP and IPv4 "
                            "within a 1500-byte MTU at 1449 at most).",
                            UintegerValue(1400),
                            MakeUintegerAccessor(&MulticastSender::m_packetBytes),
                            MakeUintegerChecker<uint32_t>(1, 1449));
    return tid;
}

MulticastSender::MulticastSender() = default;

void
MulticastSender::DoDispose()
{
    m_wake.Cancel();
    m_start.Cancel();
    m_finish.Cancel();
    ddnn_mcast_sender_free(m_sender);
    m_sender = nullptr;
    if (m_socket)
    {
        m_socket->Close();
        m_socket = nullptr;
    }
    m_node = nullptr;
    Object::DoDispose();
}

void
MulticastSender::SetCompleteCallback(CompleteCallback complete)
{
    m_complete = complete;
}

void
MulticastSender::Setup(Ptr<Node> node, Ipv4Address group, uint32_t receivers)
{
    NS_LOG_FUNCTION(this << node->GetId() << group << receivers);
    m_node = node;
    m_group = group;
    m_receivers = receivers;
    if (m_rate.GetBitRate() == 0)
    {
        m_rate = LinkRate(node);
    }
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    m_socket->Bind();
    m_socket->Connect(InetSocketAddress(group, m_port));
    m_socket->SetIpTos(m_tos);
    m_socket->SetRecvCallback(MakeCallback(&MulticastSender::HandleRead, this));
}

void
MulticastSender::SetTos(uint8_t tos)
{
    m_tos = tos;
    if (m_socket)
    {
        m_socket->SetIpTos(tos);
    }
}

uint32_t
MulticastSender::Send(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_queue.push_back(bytes);
    if (m_queue.size() == 1)
    {
        // An event of its own: before the simulation runs, the nodes are not initialized.
        m_start = Simulator::ScheduleNow(&MulticastSender::StartNext, this);
    }
    return m_nextMessage++;
}

void
MulticastSender::Check(int rc, const char* what) const
{
    if (rc != DDNN_OK)
    {
        NS_FATAL_ERROR("MulticastSender: " << what << ": " << ddnn_strerror(rc));
    }
}

void
MulticastSender::StartNext()
{
    ddnn_mcast_config cfg;
    ddnn_mcast_config_init(&cfg, m_queue.front(), m_receivers, m_rate.GetBitRate());
    cfg.packet_bytes = m_packetBytes;
    cfg.overhead_bytes = MulticastHeader::SIZE + 8 + 20 + 2; // UDP, IPv4, PPP
    const char* field = nullptr;
    Check(ddnn_mcast_config_check(&cfg, &field), field ? field : "configuration");
    ddnn_mcast_sender_callbacks cb;
    ddnn_mcast_sender_callbacks_init(&cb);
    cb.send_data = &MulticastSender::SendData;
    cb.complete = &MulticastSender::Completed;
    Check(ddnn_mcast_sender_new(&m_sender, &cfg, &cb, this), "new");
    NS_LOG_INFO("message " << m_active << ": " << cfg.message_bytes << " bytes to " << m_group
                           << " for " << m_receivers << " receivers at " << m_rate);
    int64_t next;
    Check(ddnn_mcast_sender_start(m_sender, Simulator::Now().GetNanoSeconds(), &next), "start");
    m_wake.At(next, &MulticastSender::Wake, this);
}

int
MulticastSender::SendData(void* ctx, uint32_t seq, uint64_t, uint32_t length, int repair)
{
    auto* self = static_cast<MulticastSender*>(ctx);
    MulticastHeader header;
    header.type = MulticastHeader::DATA;
    header.message = self->m_active;
    header.messageBytes = self->m_queue.front();
    header.a = seq;
    header.b = self->m_packetBytes;
    Ptr<Packet> packet = Create<Packet>(length);
    packet->AddHeader(header);
    NS_LOG_LOGIC((repair ? "repair " : "packet ") << seq << " of message " << self->m_active);
    self->m_socket->Send(packet);
    return DDNN_OK;
}

int
MulticastSender::Completed(void* ctx)
{
    auto* self = static_cast<MulticastSender*>(ctx);
    // Not from within the C sender's own call: Finish frees it.
    self->m_finish = Simulator::ScheduleNow(&MulticastSender::Finish, self);
    return DDNN_OK;
}

void
MulticastSender::Finish()
{
    ddnn_mcast_sender_stats s;
    ddnn_mcast_sender_get_stats(m_sender, &s);
    Add(m_done, s);
    ddnn_mcast_sender_free(m_sender);
    m_sender = nullptr;
    m_wake.Cancel();
    const uint64_t bytes = m_queue.front();
    const uint32_t message = m_active++;
    m_queue.pop_front();
    NS_LOG_INFO("message " << message << " complete: " << s.originals << " packets, " << s.repairs
                           << " repairs, " << s.probes << " probes");
    if (!m_queue.empty())
    {
        StartNext();
    }
    if (!m_complete.IsNull())
    {
        m_complete(message, bytes);
    }
}

void
MulticastSender::Wake()
{
    if (m_sender)
    {
        int64_t next;
        Check(ddnn_mcast_sender_wake(m_sender, Simulator::Now().GetNanoSeconds(), &next), "wake");
        m_wake.At(next, &MulticastSender::Wake, this);
    }
}

void
MulticastSender::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        MulticastHeader header;
        if (packet->GetSize() < MulticastHeader::SIZE)
        {
            continue;
        }
        packet->RemoveHeader(header);
        if (!m_sender || header.message != m_active
            || (header.type != MulticastHeader::NACK && header.type != MulticastHeader::DONE))
        {
            continue; // about a message already complete
        }
        const int64_t now = Simulator::Now().GetNanoSeconds();
        int64_t next;
        const int rc = header.type == MulticastHeader::NACK
                           ? ddnn_mcast_sender_on_nack(
                               m_sender, now, header.receiver, header.a, header.b, &next)
                           : ddnn_mcast_sender_on_done(m_sender, now, header.receiver, &next);
        if (rc == DDNN_ERR_RANGE)
        {
            NS_LOG_WARN("ignored: " << header); // not from one of this group's receivers
            continue;
        }
        Check(rc, "control message");
        m_wake.At(next, &MulticastSender::Wake, this);
    }
}

MulticastSender::Stats
MulticastSender::GetStats() const
{
    Stats total = m_done;
    if (m_sender)
    {
        ddnn_mcast_sender_stats s;
        ddnn_mcast_sender_get_stats(m_sender, &s);
        Add(total, s);
    }
    return total;
}

DataRate
MulticastSender::LinkRate(Ptr<Node> node)
{
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        DataRateValue rate;
        if (node->GetDevice(d)->GetAttributeFailSafe("DataRate", rate))
        {
            return rate.Get();
        }
    }
    return DataRate(0);
}

uint32_t
MulticastSender::GetPending() const
{
    return m_queue.size();
}

} // namespace ns3
