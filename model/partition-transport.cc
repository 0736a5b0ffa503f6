/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "partition-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PartitionTransport");

NS_OBJECT_ENSURE_REGISTERED(PartitionTransport);

TypeId
PartitionTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PartitionTransport").SetParent<Object>().SetGroupName("Ddnn");
    return tid;
}

DDNN_TYPE_REGISTRY(PartitionTransport, "transport");

void
PartitionTransport::SetReceiveCallback(ReceiveCallback receive)
{
    m_receive = receive;
}

void
PartitionTransport::SetFailureCallback(FailureCallback failure)
{
    m_failure = failure;
}

void
PartitionTransport::SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes)
{
    for (uint32_t peer : peers)
    {
        Send(peer, bytes);
    }
}

bool
PartitionTransport::SetMulticast(bool)
{
    return false;
}

void
PartitionTransport::SetBufferTos(int)
{
}

void
PartitionTransport::SetBufferDeadline(int64_t)
{
}

void
PartitionTransport::SetInFlightTos(int tos)
{
    SetBufferTos(tos);
}

void
PartitionTransport::DoDispose()
{
    m_receive.Nullify();
    m_failure.Nullify();
    Object::DoDispose();
}

void
PartitionTransport::NotifyReceived(uint32_t from, uint64_t bytes)
{
    if (!m_receive.IsNull())
    {
        m_receive(from, bytes);
    }
}

void
PartitionTransport::NotifyFailure(const std::string& what)
{
    if (!m_failureReported && !m_failure.IsNull())
    {
        NS_LOG_WARN(what);
        m_failureReported = true;
        m_failure(what);
    }
}

void
PartitionTransport::SilenceFailures()
{
    m_failureReported = true;
}

} // namespace ns3
