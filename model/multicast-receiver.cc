/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-receiver.h"

#include "ddnn-multicast.h"
#include "multicast-header.h"
#include "multicast-sender.h"
#include "ns3-compat.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastReceiver");

NS_OBJECT_ENSURE_REGISTERED(MulticastReceiver);

namespace
{

/** Messages of one sender kept after they are complete, to answer its probes with DONE. */
constexpr uint32_t kKeptMessages = 4;

void
Add(MulticastReceiver::Stats& total, const ddnn_mcast_receiver_stats& s)
{
    total.packets += s.packets;
    total.bytes += s.bytes;
    total.duplicates += s.duplicates;
    total.nacks += s.nacks;
}

} // namespace

TypeId
MulticastReceiver::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MulticastReceiver")
                            .SetParent<Object>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<MulticastReceiver>()
                            .AddAttribute("Port",
                                          "UDP port of the groups (the senders' Port).",
                                          UintegerValue(7000),
                                          MakeUintegerAccessor(&MulticastReceiver::m_port),
                                          MakeUintegerChecker<uint16_t>(1))
                            .AddAttribute("Tos",
                                          "IP ToS of the NACKs and DONEs.",
                                          UintegerValue(0x10),
                                          MakeUintegerAccessor(&MulticastReceiver::m_tos),
                                          MakeUintegerChecker<uint8_t>());
    return tid;
}

MulticastReceiver::MulticastReceiver() = default;

void
MulticastReceiver::DoDispose()
{
    for (auto& [key, m] : m_messages)
    {
        m.wake.Cancel();
        ddnn_mcast_receiver_free(m.receiver);
    }
    m_messages.clear();
    if (m_socket)
    {
        m_socket->Close();
        m_socket = nullptr;
    }
    Object::DoDispose();
}

void
MulticastReceiver::SetReceiveCallback(ReceiveCallback receive)
{
    m_receive = receive;
}

void
MulticastReceiver::Setup(Ptr<Node> node, uint16_t index)
{
    NS_LOG_FUNCTION(this << node->GetId() << index);
    m_index = index;
    m_linkRate = MulticastSender::LinkRate(node);
    if (m_linkRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("MulticastReceiver: node " << node->GetId()
                                                  << " has no device with a DataRate");
    }
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    // Every multicast packet is delivered locally in ns-3: a socket on the port hears the
    // groups routed to this node.
    m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_socket->SetIpTos(m_tos);
    m_socket->SetRecvCallback(MakeCallback(&MulticastReceiver::HandleRead, this));
}

void
MulticastReceiver::SendControl(const Message& m, uint8_t type, uint32_t a, uint32_t b)
{
    MulticastHeader header;
    header.type = type;
    header.receiver = m_index;
    header.message = m.number;
    header.a = a;
    header.b = b;
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(header);
    compat::UdpSendToWithTos(m_socket, packet, m.sender, m_tos);
}

int
MulticastReceiver::SendNack(void* ctx, uint32_t first, uint32_t count)
{
    auto* self = static_cast<MulticastReceiver*>(ctx);
    NS_LOG_LOGIC("NACK " << first << "+" << count << " of message " << self->m_current->number);
    self->SendControl(*self->m_current, MulticastHeader::NACK, first, count);
    return DDNN_OK;
}

int
MulticastReceiver::SendDone(void* ctx)
{
    auto* self = static_cast<MulticastReceiver*>(ctx);
    self->SendControl(*self->m_current, MulticastHeader::DONE, 0, 0);
    return DDNN_OK;
}

void
MulticastReceiver::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        MulticastHeader header;
        if (packet->GetSize() < MulticastHeader::SIZE || !InetSocketAddress::IsMatchingType(from))
        {
            continue;
        }
        packet->RemoveHeader(header);
        const InetSocketAddress sender = InetSocketAddress::ConvertFrom(from);
        if (header.type != MulticastHeader::DATA)
        {
            continue;
        }
        const Key key{sender.GetIpv4().Get(), header.message};
        auto it = m_messages.find(key);
        auto newest = m_newest.try_emplace(key.first, header.message).first;
        if (it == m_messages.end() && header.message + kKeptMessages <= newest->second)
        {
            continue; // a late copy of a message complete and forgotten: nothing to do
        }
        newest->second = std::max(newest->second, header.message);
        if (it == m_messages.end())
        {
            ddnn_mcast_config cfg;
            ddnn_mcast_config_init(&cfg, header.messageBytes, 1, m_linkRate.GetBitRate());
            cfg.packet_bytes = header.b;
            ddnn_mcast_receiver_callbacks cb;
            ddnn_mcast_receiver_callbacks_init(&cb);
            cb.send_nack = &MulticastReceiver::SendNack;
            cb.send_done = &MulticastReceiver::SendDone;
            Message m;
            m.sender = sender;
            m.number = header.message;
            if (ddnn_mcast_receiver_new(&m.receiver, &cfg, &cb, this) != DDNN_OK)
            {
                NS_LOG_WARN("ignored: " << header);
                continue;
            }
            it = m_messages.emplace(key, m).first;
            Forget(key.first, header.message);
        }
        Message& m = it->second;
        const bool wasComplete = ddnn_mcast_receiver_complete(m.receiver);
        int64_t next;
        m_current = &m;
        const int rc = ddnn_mcast_receiver_on_data(
            m.receiver, Simulator::Now().GetNanoSeconds(), header.a, packet->GetSize(), &next);
        m_current = nullptr;
        if (rc != DDNN_OK)
        {
            NS_LOG_WARN("ignored: " << header << " of " << packet->GetSize() << " bytes");
            continue;
        }
        m.wake.At(next, &MulticastReceiver::Wake, this, key);
        if (!wasComplete && ddnn_mcast_receiver_complete(m.receiver) && !m_receive.IsNull())
        {
            NS_LOG_INFO("message " << m.number << " from " << sender.GetIpv4() << " complete");
            m_receive(sender.GetIpv4(), m.number, header.messageBytes);
        }
    }
}

void
MulticastReceiver::Wake(Key key)
{
    auto it = m_messages.find(key);
    if (it == m_messages.end())
    {
        return;
    }
    int64_t next;
    m_current = &it->second;
    const int rc
        = ddnn_mcast_receiver_wake(it->second.receiver, Simulator::Now().GetNanoSeconds(), &next);
    m_current = nullptr;
    if (rc != DDNN_OK)
    {
        NS_FATAL_ERROR("MulticastReceiver: wake: " << ddnn_strerror(rc));
    }
    it->second.wake.At(next, &MulticastReceiver::Wake, this, key);
}

void
MulticastReceiver::Forget(uint32_t sender, uint32_t newest)
{
    for (auto it = m_messages.begin(); it != m_messages.end();)
    {
        if (it->first.first == sender && newest - it->first.second >= kKeptMessages
            && newest >= it->first.second && ddnn_mcast_receiver_complete(it->second.receiver))
        {
            ddnn_mcast_receiver_stats s;
            ddnn_mcast_receiver_get_stats(it->second.receiver, &s);
            Add(m_forgotten, s);
            it->second.wake.Cancel();
            ddnn_mcast_receiver_free(it->second.receiver);
            it = m_messages.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

MulticastReceiver::Stats
MulticastReceiver::GetStats() const
{
    Stats total = m_forgotten;
    for (const auto& [key, m] : m_messages)
    {
        ddnn_mcast_receiver_stats s;
        ddnn_mcast_receiver_get_stats(m.receiver, &s);
        Add(total, s);
    }
    return total;
}

} // namespace ns3
