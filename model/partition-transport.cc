/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "partition-transport.h"

#include "one-line-error.h"

#include "ns3/log.h"

#include <map>

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

namespace
{

/** The registered transports by name (sorted, whatever the order of registration). */
std::map<std::string, TypeId (*)()>&
Registry()
{
    static std::map<std::string, TypeId (*)()> transports;
    return transports;
}

} // namespace

bool
PartitionTransport::Register(const std::string& name, TypeId (*getTypeId)())
{
    if (!Registry().emplace(name, getTypeId).second)
    {
        throw DdnnError("transport '" + name + "': a transport of that name is already registered");
    }
    return true;
}

TypeId
PartitionTransport::Lookup(const std::string& name)
{
    auto found = Registry().find(name);
    if (found == Registry().end())
    {
        std::string expected;
        for (const std::string& known : Names())
        {
            expected += (expected.empty() ? "" : ", ") + known;
        }
        throw DdnnError("transport: expected one of " + expected + ", got '" + name + "'");
    }
    return found->second();
}

std::vector<std::string>
PartitionTransport::Names()
{
    std::vector<std::string> names;
    for (const auto& entry : Registry())
    {
        names.push_back(entry.first);
    }
    return names;
}

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
PartitionTransport::SetBufferTos(int)
{
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
