/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-stream-sender.h"

#include "tcp-setup-check.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpStreamSender");

TcpStreamSender::TimeoutObserver TcpStreamSender::s_timeoutObserver;

void
TcpStreamSender::SetTimeoutObserver(TimeoutObserver observer)
{
    s_timeoutObserver = observer;
}

void
TcpStreamSender::CongStateChanged(Socket* socket,
                                  TenantKind::Tenant tenant,
                                  TcpSocketState::TcpCongState_t,
                                  TcpSocketState::TcpCongState_t to)
{
    if (to == TcpSocketState::CA_LOSS)
    {
        NS_LOG_INFO("retransmission timeout on a connection of node "
                    << socket->GetNode()->GetId());
        if (!s_timeoutObserver.IsNull())
        {
            s_timeoutObserver(Ptr<Socket>(socket), tenant);
        }
    }
    else if (to == TcpSocketState::CA_RECOVERY)
    {
        NS_LOG_LOGIC("fast retransmit on a connection of node " << socket->GetNode()->GetId());
    }
}

TcpStreamSender::TcpStreamSender(Ptr<Socket> socket, uint32_t chunkBytes, TenantKind::Tenant tenant)
    : m_socket(socket)
    , m_chunkBytes(chunkBytes)
    , m_tenant(tenant)
{
    WarnIfNs3TcpDefaults(socket);
}

TcpStreamSender::~TcpStreamSender()
{
    if (m_socket)
    {
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    }
}

void
TcpStreamSender::Connect(const Address& peer, Notification failed)
{
    NS_LOG_FUNCTION(this << peer);
    // (A raw pointer: the socket holds the trace, so it outlives every call.)
    m_socket->TraceConnectWithoutContext(
        "CongState",
        MakeBoundCallback(&TcpStreamSender::CongStateChanged, PeekPointer(m_socket), m_tenant));
    m_failed = failed;
    m_socket->SetConnectCallback(MakeCallback(&TcpStreamSender::Connected, this),
                                 MakeCallback(&TcpStreamSender::ConnectFailed, this));
    m_socket->SetSendCallback(MakeCallback(&TcpStreamSender::SendSpace, this));
    m_socket->ShutdownRecv();
    m_socket->Connect(peer);
}

void
TcpStreamSender::Add(uint64_t bytes)
{
    m_pending += bytes;
    Pump();
}

void
TcpStreamSender::SetDrainedCallback(Notification drained)
{
    m_drained = drained;
}

uint64_t
TcpStreamSender::GetPending() const
{
    return m_pending;
}

bool
TcpStreamSender::IsConnected() const
{
    return m_connected;
}

Ptr<Socket>
TcpStreamSender::GetSocket() const
{
    return m_socket;
}

void
TcpStreamSender::Close()
{
    NS_LOG_FUNCTION(this);
    if (!m_socket)
    {
        return;
    }
    m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    m_socket->Close();
    m_connected = false;
}

void
TcpStreamSender::Connected(Ptr<Socket>)
{
    NS_LOG_FUNCTION(this);
    m_connected = true;
    Pump();
}

void
TcpStreamSender::ConnectFailed(Ptr<Socket>)
{
    NS_LOG_WARN("node " << m_socket->GetNode()->GetId() << ": a connection failed to open");
    if (!m_failed.IsNull())
    {
        m_failed(this);
    }
}

void
TcpStreamSender::SendSpace(Ptr<Socket>, uint32_t)
{
    Pump();
}

void
TcpStreamSender::Pump()
{
    if (!m_connected || m_pending == 0)
    {
        return;
    }
    Ptr<TcpStreamSender> keepAlive(this); // the drained callback may drop the owner's reference
    while (m_pending > 0)
    {
        const uint64_t chunk = std::min<uint64_t>(
            {m_pending, static_cast<uint64_t>(m_socket->GetTxAvailable()), m_chunkBytes});
        if (chunk == 0)
        {
            return; // SendSpace() calls again when the socket has room
        }
        Ptr<Packet> packet = Create<Packet>(static_cast<uint32_t>(chunk));
        const int sent = m_socket->Send(packet);
        if (sent <= 0)
        {
            return;
        }
        m_pending -= static_cast<uint64_t>(sent);
    }
    if (!m_drained.IsNull())
    {
        m_drained(keepAlive);
    }
}

} // namespace ns3
