/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "port-plan.h"

#include "ns3/aggregating-switch.h"
#include "ns3/background-tenant.h"
#include "ns3/ddnn-collective.h"
#include "ns3/multicast-receiver.h"
#include "ns3/one-line-error.h"
#include "ns3/tcp-partition-transport.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <vector>

namespace ns3
{

namespace
{

/** One owner of listening ports [first, last] of a protocol, as the user would name it. */
struct PortUse
{
    std::string protocol;
    uint32_t first;
    uint32_t last;
    std::string owner;
    std::string attribute; //!< "ns3::Type::Attribute" it comes from; "" for a fixed range
};

/** "what (ns3::Type::Attribute=P[ + k])": a port as given, and how it was derived. */
PortUse
Use(const std::string& protocol,
    const std::string& what,
    TypeId type,
    const char* attribute,
    uint32_t k)
{
    const uint32_t base = ConfiguredPort(type, attribute);
    const std::string name = type.GetName() + "::" + attribute;
    const std::string given = name + "=" + std::to_string(base)
                              + (k > 0 ? " + the job's index " + std::to_string(k) : "");
    return {protocol, base + k, base + k, what + " (" + given + ")", name};
}

} // namespace

uint32_t
ConfiguredPort(TypeId type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    type.LookupAttributeByName(attribute, &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

void
CheckPorts(const Scenario& scenario, bool background)
{
    std::vector<PortUse> uses;
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        const ddnn_scenario_job& job = scenario.Job(k);
        const std::string name = "job " + std::to_string(k + 1);
        if (Is(job.transport, "tcp"))
        {
            uses.push_back(
                Use("TCP", name + "'s transport", TcpPartitionTransport::GetTypeId(), "Port", k));
        }
        if (Is(job.syncer, "network"))
        {
            uses.push_back(Use("TCP", name + "'s syncer", TrainingJob::GetTypeId(), "SyncPort", k));
        }
        if (Is(job.distribution, "multicast"))
        {
            uses.push_back(Use(
                "UDP", name + "'s multicast receivers", MulticastReceiver::GetTypeId(), "Port", 0));
        }
        const ddnn_collective_ops* collective = ddnn_collective_find(job.collective);
        if (collective && collective->network_peer)
        {
            uses.push_back(Use(
                "UDP", name + "'s aggregating switch", AggregatingSwitch::GetTypeId(), "Port", 0));
        }
    }
    if (background)
    {
        uses.push_back(
            Use("TCP", "the background's sinks", BackgroundTenant::GetTypeId(), "Port", 0));
        uses.push_back({"TCP",
                        BackgroundTenant::FIRST_FLOW_PORT,
                        BackgroundTenant::FIRST_FLOW_PORT + BackgroundTenant::FLOW_PORTS - 1,
                        "the background flows' source ports (10000 to 49151)",
                        ""});
    }
    for (const char* protocol : {"TCP", "UDP"}) // a connecting socket's own port
    {
        uses.push_back({protocol, 49152, 65535, "ns-3's ephemeral ports (49152 to 65535)", ""});
    }
    for (size_t i = 0; i < uses.size(); ++i)
    {
        for (size_t j = i + 1; j < uses.size(); ++j)
        {
            const PortUse& a = uses[i];
            const PortUse& b = uses[j];
            // Several jobs' multicast receivers (or aggregation clients) share one port by
            // design: their groups (or headers) tell the jobs apart.
            const bool shared = !a.attribute.empty() && a.attribute == b.attribute;
            if (a.protocol == b.protocol && a.first <= b.last && b.first <= a.last && !shared)
            {
                const uint32_t port = std::max(a.first, b.first);
                throw DdnnError("ports: " + a.protocol + " port " + std::to_string(port)
                                + " belongs to " + a.owner + " and to " + b.owner
                                + ": give one of them another port");
            }
        }
    }
}

} // namespace ns3
