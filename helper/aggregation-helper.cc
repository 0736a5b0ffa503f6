/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-helper.h"

#include "ns3/aggregation-header.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/one-line-error.h"
#include "ns3/training-worker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationHelper");

namespace
{

/** The first device of `node` on a link (not its loopback), or null. */
Ptr<NetDevice>
Uplink(Ptr<Node> node)
{
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<NetDevice> device = node->GetDevice(d);
        if (device->GetChannel() && device->GetChannel()->GetNDevices() == 2)
        {
            return device;
        }
    }
    return nullptr;
}

} // namespace

AggregationHelper::AggregationHelper()
{
    m_switch.SetTypeId(AggregatingSwitch::GetTypeId());
}

void
AggregationHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

Ptr<Node>
AggregationHelper::SharedSwitch(Ptr<TrainingJob> job)
{
    Ptr<Node> shared;
    for (uint32_t w = 0; w < job->GetWorkerCount(); ++w)
    {
        Ptr<Node> node = job->GetWorker(w)->GetNode();
        Ptr<NetDevice> uplink = Uplink(node);
        if (!uplink)
        {
            throw DdnnError("in-network-aggregation: worker " + std::to_string(w) + " (node "
                            + std::to_string(node->GetId())
                            + ") has no point-to-point link to a switch");
        }
        Ptr<Channel> link = uplink->GetChannel();
        Ptr<Node> tor = link->GetDevice(link->GetDevice(0) == uplink ? 1 : 0)->GetNode();
        if (shared && tor != shared)
        {
            throw DdnnError("in-network-aggregation: worker 0 hangs from node "
                            + std::to_string(shared->GetId()) + " and worker " + std::to_string(w)
                            + " from node " + std::to_string(tor->GetId())
                            + ", expected every worker under one switch (one rack: the design "
                              "aggregates at the top-of-rack switch only)");
        }
        shared = tor;
    }
    return shared;
}

Ptr<AggregatingSwitch>
AggregationHelper::Install(Ptr<Node> node) const
{
    for (uint32_t a = 0; a < node->GetNApplications(); ++a)
    {
        if (Ptr<AggregatingSwitch> existing
            = DynamicCast<AggregatingSwitch>(node->GetApplication(a)))
        {
            return existing;
        }
    }
    Ptr<AggregatingSwitch> app = m_switch.Create<AggregatingSwitch>();
    node->AddApplication(app);
    NS_LOG_INFO("node " << node->GetId() << " aggregates");
    return app;
}

bool
AggregationHelper::Join(Ptr<TrainingJob> job) const
{
    NS_LOG_FUNCTION(job);
    if (!job->AggregatesInNetwork())
    {
        throw DdnnError("ns3::AggregationHelper: the job's collective " + job->GetCollectiveName()
                        + " does not aggregate in the network, expected in-network-aggregation");
    }
    UintegerValue slots;
    UintegerValue slotBytes;
    TimeValue timeout;
    job->GetAttribute("AggregationSlots", slots);
    job->GetAttribute("AggregationSlotBytes", slotBytes);
    job->GetAttribute("AggregationTimeout", timeout);
    Ptr<Node> tor = SharedSwitch(job);
    // A chunk travels in one packet: its payload, the header, UDP's and IPv4's.
    const uint32_t mtu = Uplink(job->GetWorker(0)->GetNode())->GetMtu();
    const uint32_t overhead = AggregationHeader::SIZE + 8 + 20;
    if (slotBytes.Get() + overhead > mtu)
    {
        throw DdnnError("ns3::TrainingJob::AggregationSlotBytes: " + std::to_string(slotBytes.Get())
                        + ", expected at most " + std::to_string(mtu - overhead)
                        + " (the links' MTU " + std::to_string(mtu)
                        + " less the aggregation, UDP and IPv4 headers)");
    }
    Ptr<AggregatingSwitch> aggregator = Install(tor);
    const uint32_t workers = job->GetWorkerCount();
    Ptr<const AggregationLease> lease
        = aggregator->Lease(workers, slots.Get(), slotBytes.Get(), timeout.Get());
    if (lease)
    {
        job->SetAggregationLease(lease);
        return true;
    }
    const uint64_t asked = static_cast<uint64_t>(slots.Get()) * slotBytes.Get();
    job->FallBack("the switch (node " + std::to_string(tor->GetId()) + ") has "
                  + std::to_string(aggregator->GetMemoryBytes() - aggregator->GetMemoryInUse())
                  + " of its " + std::to_string(aggregator->GetMemoryBytes())
                  + " bytes of slot memory free, the job asks for " + std::to_string(asked) + " ("
                  + std::to_string(slots.Get()) + " slots of " + std::to_string(slotBytes.Get())
                  + " bytes)");
    return false;
}

} // namespace ns3
