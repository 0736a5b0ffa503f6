/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-flow-sink.h"

#include "background-tenant.h"
#include "ns3-compat.h"
#include "one-line-error.h"
#include "slack-marker.h"
#include "tenant-congestion-control.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundFlowSink");
NS_OBJECT_ENSURE_REGISTERED(BackgroundFlowSink);

TypeId
BackgroundFlowSink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BackgroundFlowSink")
                            .SetParent<Application>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<BackgroundFlowSink>();
    return tid;
}

BackgroundFlowSink::BackgroundFlowSink() = default;

void
BackgroundFlowSink::DoDispose()
{
    m_connections.clear();
    m_listener = nullptr;
    m_tenant = nullptr;
    Application::DoDispose();
}

void
BackgroundFlowSink::Setup(Ptr<BackgroundTenant> tenant)
{
    m_tenant = tenant;
}

size_t
BackgroundFlowSink::GetOpenConnections() const
{
    return m_connections.size();
}

uint16_t
BackgroundFlowSink::GetPort() const
{
    return m_tenant->GetPort();
}

void
BackgroundFlowSink::StartApplication()
{
    NS_LOG_FUNCTION(this << GetNode()->GetId());
    InetSocketAddress local(Ipv4Address::GetAny(), m_tenant->GetPort());
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    UseCongestionControl(m_listener, m_tenant->GetCongestionControl());
    compat::SetTos(m_listener, local, m_tenant->GetAckTos()); // the band of the ACKs
    if (m_tenant->GetSlackTags())
    {
        // Accepted sockets inherit it: ACKs are due when the data they acknowledge is.
        Create<SlackMarker>(TenantKind::BACKGROUND)->Attach(m_listener);
    }
    if (m_listener->Bind(local) == -1 || m_listener->Listen() == -1)
    {
        throw DdnnError("background sink on node " + std::to_string(GetNode()->GetId())
                        + ": cannot listen on TCP port " + std::to_string(m_tenant->GetPort()));
    }
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&BackgroundFlowSink::Accepted, this));
}

void
BackgroundFlowSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& entry : m_connections)
    {
        entry.second.first->Close();
    }
    m_connections.clear();
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
BackgroundFlowSink::Accepted(Ptr<Socket> socket, const Address& from)
{
    InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    uint64_t flow = m_tenant->LookupConnection(peer.GetIpv4(), peer.GetPort());
    if (flow == UINT64_MAX)
    {
        throw DdnnError("background sink on node " + std::to_string(GetNode()->GetId())
                        + ": connection from an unknown flow");
    }
    NS_LOG_DEBUG("node " << GetNode()->GetId() << ": accepted background flow index " << flow);
    m_connections[PeekPointer(socket)] = {socket, flow};
    socket->SetRecvCallback(MakeCallback(&BackgroundFlowSink::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&BackgroundFlowSink::HandleClose, this),
                              MakeCallback(&BackgroundFlowSink::HandleClose, this));
}

void
BackgroundFlowSink::HandleRead(Ptr<Socket> socket)
{
    auto it = m_connections.find(PeekPointer(socket));
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        if (it != m_connections.end())
        {
            m_tenant->NotifyReceived(it->second.second, packet->GetSize());
        }
    }
}

void
BackgroundFlowSink::HandleClose(Ptr<Socket> socket)
{
    auto it = m_connections.find(PeekPointer(socket));
    if (it != m_connections.end())
    {
        socket->Close();
        m_connections.erase(it);
    }
}

} // namespace ns3
