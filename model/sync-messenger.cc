/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sync-messenger.h"

#include "local-node.h"
#include "ns3-compat.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncMessenger");
NS_OBJECT_ENSURE_REGISTERED(SyncMessenger);

namespace
{

void
PutU32(uint8_t* at, uint32_t value)
{
    at[0] = value >> 24;
    at[1] = value >> 16;
    at[2] = value >> 8;
    at[3] = value;
}

uint32_t
GetU32(const uint8_t* at)
{
    return (uint32_t{at[0]} << 24) | (uint32_t{at[1]} << 16) | (uint32_t{at[2]} << 8) | at[3];
}

} // namespace

TypeId
SyncMessenger::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SyncMessenger")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<SyncMessenger>()
              .AddAttribute("Port",
                            "TCP port on which the coordinator (worker 0) accepts the workers.",
                            UintegerValue(5100),
                            MakeUintegerAccessor(&SyncMessenger::m_port),
                            MakeUintegerChecker<uint16_t>(1, 49151))
              .AddAttribute("Tos",
                            "IP ToS of the messages (the training's).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&SyncMessenger::m_tos),
                            MakeUintegerChecker<uint8_t>());
    return tid;
}

SyncMessenger::SyncMessenger() = default;

void
SyncMessenger::DoDispose()
{
    Close();
    m_workerEnds.clear();
    m_coordinatorEnds.clear();
    m_accepted.clear();
    m_listen = nullptr;
    Object::DoDispose();
}

void
SyncMessenger::SetCallbacks(ReportCallback report, StartCallback start, FailureCallback failure)
{
    m_report = report;
    m_start = start;
    m_failure = failure;
}

void
SyncMessenger::Open(const std::vector<Ptr<Node>>& nodes, const std::vector<Ipv4Address>& addresses)
{
    NS_LOG_FUNCTION(this << nodes.size());
    if (nodes.size() < 2)
    {
        return; // one worker syncs with itself
    }
    for (uint32_t w = 1; w < addresses.size(); ++w)
    {
        m_workerOf[addresses[w]] = w;
    }
    // In a distributed run, each process opens the sockets of its own nodes only.
    InetSocketAddress local(Ipv4Address::GetAny(), m_port);
    if (IsLocalNode(nodes[0]))
    {
        m_listen = Socket::CreateSocket(nodes[0], TcpSocketFactory::GetTypeId());
        compat::SetTos(m_listen, local, m_tos); // accepted sockets answer at the ToS too
        if (m_listen->Bind(local) == -1 || m_listen->Listen() == -1)
        {
            Fail("the coordinator cannot listen on TCP port " + std::to_string(m_port));
            return;
        }
        m_listen->SetAcceptCallback(MakeCallback(&SyncMessenger::AcceptRequest, this),
                                    MakeCallback(&SyncMessenger::Accepted, this));
    }
    m_workerEnds.resize(nodes.size());
    InetSocketAddress coordinator(addresses[0], m_port);
    for (uint32_t w = 1; w < nodes.size(); ++w)
    {
        if (!IsLocalNode(nodes[w]))
        {
            continue;
        }
        End& end = m_workerEnds[w];
        end.socket = Socket::CreateSocket(nodes[w], TcpSocketFactory::GetTypeId());
        compat::SetTos(end.socket, coordinator, m_tos);
        end.socket->Bind();
        end.socket->SetConnectCallback(MakeCallback(&SyncMessenger::Connected, this),
                                       MakeCallback(&SyncMessenger::ConnectFailed, this));
        end.socket->SetRecvCallback(MakeCallback(&SyncMessenger::HandleRead, this));
        end.socket->SetSendCallback(MakeCallback(&SyncMessenger::HandleSend, this));
        end.socket->SetCloseCallbacks(MakeCallback(&SyncMessenger::HandleClose, this),
                                      MakeCallback(&SyncMessenger::HandleClose, this));
        end.socket->Connect(coordinator);
    }
}

void
SyncMessenger::Report(uint32_t worker, Kind kind, uint32_t iteration, uint32_t buffer)
{
    if (worker == 0 || worker >= m_workerEnds.size())
    {
        m_report(worker, kind, iteration, buffer); // the coordinator's own worker
        return;
    }
    Send(m_workerEnds[worker], kind, worker, iteration, buffer);
}

void
SyncMessenger::Start(uint32_t worker, uint32_t iteration, uint32_t buffer)
{
    if (worker == 0 || worker >= m_workerEnds.size())
    {
        m_start(worker, iteration, buffer);
        return;
    }
    auto it = m_coordinatorEnds.find(worker);
    if (it == m_coordinatorEnds.end())
    {
        Fail("worker " + std::to_string(worker) + " has no connection to the coordinator");
        return;
    }
    Send(it->second, START, worker, iteration, buffer);
}

void
SyncMessenger::Send(End& end, Kind kind, uint32_t worker, uint32_t iteration, uint32_t buffer)
{
    uint8_t message[MESSAGE_BYTES] = {kind, 0};
    message[2] = worker >> 8;
    message[3] = worker;
    PutU32(message + 4, iteration);
    PutU32(message + 8, buffer);
    end.out.insert(end.out.end(), message, message + MESSAGE_BYTES);
    Flush(end);
}

void
SyncMessenger::Flush(End& end)
{
    if (!end.connected || end.out.empty() || m_closed)
    {
        return;
    }
    const uint32_t room = end.socket->GetTxAvailable();
    const uint32_t bytes = std::min<uint32_t>(room, end.out.size());
    if (bytes == 0)
    {
        return; // HandleSend comes back when there is room
    }
    Ptr<Packet> packet = Create<Packet>(end.out.data(), bytes);
    const int sent = end.socket->Send(packet);
    if (sent > 0)
    {
        end.out.erase(end.out.begin(), end.out.begin() + sent);
        m_bytesSent += sent;
    }
}

void
SyncMessenger::Connected(Ptr<Socket> socket)
{
    if (End* end = EndOf(socket))
    {
        end->connected = true;
        Flush(*end);
    }
}

void
SyncMessenger::ConnectFailed(Ptr<Socket>)
{
    Fail("a worker's syncing connection to the coordinator failed");
}

bool
SyncMessenger::AcceptRequest(Ptr<Socket>, const Address& from)
{
    return m_workerOf.count(InetSocketAddress::ConvertFrom(from).GetIpv4()) > 0;
}

void
SyncMessenger::Accepted(Ptr<Socket> socket, const Address& from)
{
    const uint32_t worker = m_workerOf.at(InetSocketAddress::ConvertFrom(from).GetIpv4());
    NS_LOG_DEBUG("the coordinator accepted worker " << worker);
    m_accepted[socket] = worker;
    End& end = m_coordinatorEnds[worker];
    end.socket = socket;
    end.connected = true;
    socket->SetRecvCallback(MakeCallback(&SyncMessenger::HandleRead, this));
    socket->SetSendCallback(MakeCallback(&SyncMessenger::HandleSend, this));
    socket->SetCloseCallbacks(MakeCallback(&SyncMessenger::HandleClose, this),
                              MakeCallback(&SyncMessenger::HandleClose, this));
    Flush(end);
}

SyncMessenger::End*
SyncMessenger::EndOf(Ptr<Socket> socket)
{
    auto accepted = m_accepted.find(socket);
    if (accepted != m_accepted.end())
    {
        return &m_coordinatorEnds[accepted->second];
    }
    for (End& end : m_workerEnds)
    {
        if (end.socket == socket)
        {
            return &end;
        }
    }
    return nullptr;
}

void
SyncMessenger::HandleSend(Ptr<Socket> socket, uint32_t)
{
    if (End* end = EndOf(socket))
    {
        Flush(*end);
    }
}

void
SyncMessenger::HandleRead(Ptr<Socket> socket)
{
    End* end = EndOf(socket);
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (!end || m_closed || packet->GetSize() == 0)
        {
            continue;
        }
        const size_t had = end->in.size();
        end->in.resize(had + packet->GetSize());
        packet->CopyData(end->in.data() + had, packet->GetSize());
        size_t at = 0;
        for (; end->in.size() - at >= MESSAGE_BYTES; at += MESSAGE_BYTES)
        {
            const uint8_t* m = end->in.data() + at;
            const Kind kind = static_cast<Kind>(m[0]);
            const uint32_t worker = (uint32_t{m[2]} << 8) | m[3];
            if (kind == START)
            {
                m_start(worker, GetU32(m + 4), GetU32(m + 8));
            }
            else
            {
                m_report(worker, kind, GetU32(m + 4), GetU32(m + 8));
            }
            if (m_closed)
            {
                return; // the job ended on what this message set off
            }
        }
        end->in.erase(end->in.begin(), end->in.begin() + at);
    }
}

void
SyncMessenger::HandleClose(Ptr<Socket>)
{
    Fail("a syncing connection between a worker and the coordinator closed");
}

void
SyncMessenger::Fail(const std::string& what)
{
    if (!m_closed && !m_failure.IsNull())
    {
        NS_LOG_WARN(what);
        m_failure(what);
    }
}

void
SyncMessenger::Close()
{
    if (m_closed)
    {
        return;
    }
    m_closed = true;
    for (End& end : m_workerEnds)
    {
        if (end.socket)
        {
            end.socket->Close();
        }
    }
    for (auto& [worker, end] : m_coordinatorEnds)
    {
        end.socket->Close();
    }
    if (m_listen)
    {
        m_listen->Close();
    }
}

uint64_t
SyncMessenger::GetBytesSent() const
{
    return m_bytesSent;
}

} // namespace ns3
