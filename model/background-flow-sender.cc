/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-flow-sender.h"

#include "background-tenant.h"
#include "ddnn-exception.h"
#include "ns3-compat.h"
#include "tcp-setup-check.h"
#include "tenant-tag.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

#include <algorithm>

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
    m_pending.clear();
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
}

void
BackgroundFlowSender::StopApplication()
{
    for (auto& entry : m_pending)
    {
        entry.second.socket->Close();
    }
    m_pending.clear();
}

size_t
BackgroundFlowSender::GetOpenFlows() const
{
    return m_pending.size();
}

void
BackgroundFlowSender::StartFlow(uint64_t index, Ipv4Address dst, uint64_t bytes)
{
    Ptr<Socket> socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    WarnIfNs3TcpDefaults(socket);
    if (socket->Bind() == -1)
    {
        throw DdnnError("background sender on server " + std::to_string(m_server)
                        + ": no free local port for flow index " + std::to_string(index));
    }
    Address local;
    socket->GetSockName(local);
    m_tenant->RegisterConnection(m_server, InetSocketAddress::ConvertFrom(local).GetPort(), index);
    socket->SetConnectCallback(MakeCallback(&BackgroundFlowSender::Connected, this),
                               MakeCallback(&BackgroundFlowSender::ConnectFailed, this));
    socket->SetSendCallback(MakeCallback(&BackgroundFlowSender::SendSpace, this));
    socket->ShutdownRecv();
    InetSocketAddress peer(dst, m_tenant->GetPort());
    compat::SetTos(socket, peer, m_tenant->GetTos());
    m_pending[PeekPointer(socket)] = Pending{socket, bytes, false};
    socket->Connect(peer);
}

void
BackgroundFlowSender::Connected(Ptr<Socket> socket)
{
    auto it = m_pending.find(PeekPointer(socket));
    if (it != m_pending.end())
    {
        it->second.connected = true;
        Pump(socket);
    }
}

void
BackgroundFlowSender::ConnectFailed(Ptr<Socket> socket)
{
    // The flow stays incomplete and is reported so; the socket is released.
    NS_LOG_WARN("server " << m_server << ": a background connection failed at "
                          << Simulator::Now().As(Time::S));
    m_pending.erase(PeekPointer(socket));
}

void
BackgroundFlowSender::SendSpace(Ptr<Socket> socket, uint32_t)
{
    Pump(socket);
}

void
BackgroundFlowSender::Pump(Ptr<Socket> socket)
{
    auto it = m_pending.find(PeekPointer(socket));
    if (it == m_pending.end() || !it->second.connected)
    {
        return;
    }
    Pending& flow = it->second;
    const uint64_t chunkBytes = m_tenant->GetSendChunkBytes();
    while (flow.remaining > 0)
    {
        uint64_t chunk = std::min<uint64_t>(
            {flow.remaining, static_cast<uint64_t>(socket->GetTxAvailable()), chunkBytes});
        if (chunk == 0)
        {
            return; // SendSpace() calls again
        }
        Ptr<Packet> packet = Create<Packet>(static_cast<uint32_t>(chunk));
        packet->AddByteTag(TenantTag(TenantTag::BACKGROUND));
        int sent = socket->Send(packet);
        if (sent <= 0)
        {
            return;
        }
        flow.remaining -= static_cast<uint64_t>(sent);
    }
    // Every byte is in the socket: TCP sends the rest, then its FIN.
    socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->Close();
    m_pending.erase(it);
}

} // namespace ns3
