/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "slack-marker.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlackMarker");

SlackMarker::SlackMarker(TenantKind::Tenant tenant)
    : m_tenant(tenant)
{
}

void
SlackMarker::SetDeadline(int64_t deadlineNs)
{
    NS_LOG_FUNCTION(this << deadlineNs);
    m_deadlineNs = deadlineNs;
    m_hasDeadline = true;
}

bool
SlackMarker::HasDeadline() const
{
    return m_hasDeadline;
}

int64_t
SlackMarker::GetDeadlineNs() const
{
    return m_deadlineNs;
}

bool
SlackMarker::Attach(Ptr<Socket> socket)
{
    if (!DynamicCast<TcpSocketBase>(socket))
    {
        return false;
    }
    // The traces hold a reference: the marker lives as long as a socket it marks.
    Ptr<SlackMarker> self(this);
    socket->TraceConnectWithoutContext("Tx", MakeCallback(&SlackMarker::Sent, self));
    socket->TraceConnectWithoutContext("Rx", MakeCallback(&SlackMarker::Received, self));
    return true;
}

void
SlackMarker::Sent(Ptr<const Packet> packet,
                  const TcpHeader& header,
                  Ptr<const TcpSocketBase> socket)
{
    SlackTag tag;
    if (packet->PeekPacketTag(tag))
    {
        return;
    }
    auto echo = m_received.find(PeekPointer(socket));
    if (packet->GetSize() == 0 && echo != m_received.end())
    {
        packet->AddPacketTag(echo->second);
    }
    else
    {
        // Before any deadline (a handshake): due at once.
        packet->AddPacketTag(
            SlackTag(m_hasDeadline ? m_deadlineNs : Simulator::Now().GetNanoSeconds(), m_tenant));
    }
    if ((header.GetFlags() & TcpHeader::FIN) && echo != m_received.end())
    {
        m_received.erase(echo);
    }
}

void
SlackMarker::Received(Ptr<const Packet> packet, const TcpHeader&, Ptr<const TcpSocketBase> socket)
{
    SlackTag tag;
    if (packet->GetSize() > 0 && packet->PeekPacketTag(tag))
    {
        m_received[PeekPointer(socket)] = tag;
    }
}

} // namespace ns3
