/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-flow-sender.h"

#include "background-tenant.h"
#include "ns3-compat.h"
#include "one-line-error.h"
#include "slack-marker.h"
#include "tenant-congestion-control.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundFlowSender");
NS_OBJECT_ENSURE_REGISTERED(BackgroundFlowSender);

TypeId
BackgroundFlowSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BackgroundFlowSender")
                            .SetParent<Application>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<BackgroundFlowSender>();
    return tid;
}

BackgroundFlowSender::BackgroundFlowSender() = default;

void
BackgroundFlowSender::DoDispose()
{
    m_open.clear();
    m_tenant = nullptr;
    Application::DoDispose();
}

void
BackgroundFlowSender::Setup(Ptr<BackgroundTenant> tenant, uint32_t server)
{
    m_tenant = tenant;
    m_server = server;
}

void
BackgroundFlowSender::StartApplication()
{
    NS_LOG_FUNCTION(this << m_server);
    WarnIfEcnLost(
        GetNode(), m_tenant->GetCongestionControl(), m_tenant->GetTos(), "the background");
}

void
BackgroundFlowSender::StopApplication()
{
    NS_LOG_FUNCTION(this << m_server);
    for (auto& entry : m_open)
    {
        entry.first->Close();
    }
    m_open.clear();
}

Ptr<BackgroundTenant>
BackgroundFlowSender::GetTenant() const
{
    return m_tenant;
}

size_t
BackgroundFlowSender::GetOpenFlows() const
{
    return m_open.size();
}

void
BackgroundFlowSender::StartFlow(uint64_t index, Ipv4Address dst, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << index << dst << bytes);
    Ptr<Socket> socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    UseCongestionControl(socket, m_tenant->GetCongestionControl());
    const uint16_t port = m_tenant->GetSourcePort(index);
    if ((port == 0 ? socket->Bind() : socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)))
        == -1)
    {
        throw DdnnError("background sender on server " + std::to_string(m_server)
                        + ": no free local port for flow index " + std::to_string(index));
    }
    Address local;
    socket->GetSockName(local);
    m_tenant->RegisterConnection(m_server, InetSocketAddress::ConvertFrom(local).GetPort(), index);
    InetSocketAddress peer(dst, m_tenant->GetPort());
    compat::SetTos(socket, peer, m_tenant->GetFlowTos(bytes));
    if (m_tenant->GetSlackTags())
    {
        Ptr<SlackMarker> marker = Create<SlackMarker>(TenantKind::BACKGROUND);
        marker->SetDeadline(m_tenant->GetFlowDeadlineNs(bytes));
        marker->Attach(socket);
    }
    Ptr<TcpStreamSender> sender
        = Create<TcpStreamSender>(socket, m_tenant->GetSendChunkBytes(), TenantKind::BACKGROUND);
    m_open[sender] = index;
    sender->SetDrainedCallback(MakeCallback(&BackgroundFlowSender::Written, this));
    sender->Add(bytes);
    sender->Connect(peer, MakeCallback(&BackgroundFlowSender::ConnectFailed, this));
}

void
BackgroundFlowSender::Written(Ptr<TcpStreamSender> flow)
{
    // Every byte is in the socket: TCP sends the rest, then its FIN.
    NS_LOG_DEBUG("server " << m_server << ": every byte of flow index " << m_open[flow]
                           << " is in its socket");
    flow->Close();
    m_open.erase(flow);
}

void
BackgroundFlowSender::ConnectFailed(Ptr<TcpStreamSender> flow)
{
    // The flow stays incomplete and is reported so; the socket is released.
    NS_LOG_WARN("server " << m_server << ": the connection of background flow " << m_open[flow]
                          << " failed at " << Simulator::Now().As(Time::S));
    m_open.erase(flow);
}

} // namespace ns3
