/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tenant-priority.h"

#include "background-flow-sender.h"
#include "background-tenant.h"
#include "collective-rank.h"
#include "ipv4-nodes.h"
#include "one-line-error.h"
#include "queue-disc-band.h"
#include "training-job.h"

#include "ns3/enum.h"
#include "ns3/event-impl.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TenantPriority");

namespace
{

struct Named
{
    const char* name;
    uint8_t tos;
};

// PfifoFast's bands 0, 1 and 2 are those of ToS 0x10, 0x00 and 0x08.
const Named names[] = {{"same", 0x10},
                       {"low", 0x08},
                       {"high", 0x10},
                       {"band0", 0x10},
                       {"band1", 0x00},
                       {"band2", 0x08}};

std::string
Hex(uint8_t tos)
{
    std::ostringstream os;
    os << "0x" << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(tos);
    return os.str();
}

/** One egress (a node's device) on a tenant's path, described for the user. */
std::string
DescribeEgress(Ptr<Node> node, Ptr<NetDevice> device, Ptr<QueueDisc> disc)
{
    std::ostringstream os;
    os << "node " << node->GetId();
    const std::string name = Names::FindName(node);
    if (!name.empty())
    {
        os << " (" << name << ")";
    }
    os << " device " << device->GetIfIndex() << " (" << device->GetInstanceTypeId().GetName()
       << "): "
       << (disc ? disc->GetInstanceTypeId().GetName() : "no queue disc, the device's FIFO");
    return os.str();
}

} // namespace

uint8_t
TenantPriority::Tos(const std::string& attribute, const std::string& name)
{
    for (const Named& n : names)
    {
        if (name == n.name)
        {
            return n.tos;
        }
    }
    std::string expected;
    const size_t count = sizeof(names) / sizeof(names[0]);
    for (size_t i = 0; i < count; ++i)
    {
        expected += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + std::string(names[i].name);
    }
    throw DdnnError(attribute + ": expected " + expected + ", got '" + name + "'");
}

std::string
TenantPriority::Valid(const std::string& attribute, const std::string& name)
{
    if (!name.empty())
    {
        Tos(attribute, name);
    }
    return name;
}

Ptr<const AttributeChecker>
TenantPriority::MakeCheckModeChecker()
{
    return MakeEnumChecker(CHECK_WARN, "Warn", CHECK_ERROR, "Error", CHECK_OFF, "Off");
}

std::string
TenantPriority::FindSharedBand(const NodeContainer& servers,
                               const std::set<uint8_t>& own,
                               const std::set<uint8_t>& others)
{
    std::set<uint8_t> mine;
    for (uint8_t tos : own)
    {
        if (tos != DEFAULT_TOS)
        {
            mine.insert(tos);
        }
    }
    if (mine.empty())
    {
        return "";
    }
    std::set<uint8_t> all = others;
    all.insert(own.begin(), own.end());
    all.insert(DEFAULT_TOS);

    const std::map<Ipv4Address, Ptr<Node>> nodeOf = NodesByIpv4Address();

    const uint32_t maxDestinations = 64;
    // Each (node, destination) is walked once: paths to one destination merge.
    std::set<std::pair<uint32_t, uint32_t>> walked;
    std::set<std::pair<uint32_t, uint32_t>> checked; // (node, device)
    std::string first;
    uint32_t more = 0;
    for (uint32_t s = 0; s < servers.GetN(); ++s)
    {
        // Every other server as destination, or at most maxDestinations spread over them (the
        // check stays linear in the servers of large fabrics).
        const uint32_t others = servers.GetN() - 1;
        const uint32_t step = std::max<uint32_t>(1, others / maxDestinations);
        for (uint32_t j = 0; j < std::min(others, maxDestinations); ++j)
        {
            const uint32_t d = (s + 1 + j * step) % servers.GetN();
            Ptr<Ipv4> dstIpv4 = servers.Get(d)->GetObject<Ipv4>();
            if (s == d || !dstIpv4)
            {
                continue;
            }
            Ipv4Address dst;
            for (uint32_t i = 0; i < dstIpv4->GetNInterfaces() && dst == Ipv4Address(); ++i)
            {
                if (dstIpv4->GetNAddresses(i) > 0
                    && !dstIpv4->GetAddress(i, 0).GetLocal().IsLocalhost())
                {
                    dst = dstIpv4->GetAddress(i, 0).GetLocal();
                }
            }
            Ptr<Node> node = servers.Get(s);
            for (uint32_t hop = 0; node && hop < 64; ++hop)
            {
                Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
                if (!ipv4 || !ipv4->GetRoutingProtocol() || ipv4->GetInterfaceForAddress(dst) >= 0
                    || !walked.insert({node->GetId(), dst.Get()}).second)
                {
                    break;
                }
                Ipv4Header header;
                header.SetDestination(dst);
                header.SetProtocol(6);
                Socket::SocketErrno error;
                Ptr<Ipv4Route> route = ipv4->GetRoutingProtocol()->RouteOutput(
                    Create<Packet>(), header, nullptr, error);
                if (!route)
                {
                    break; // the tenant's connection fails and says so
                }
                Ptr<NetDevice> device = route->GetOutputDevice();
                if (checked.insert({node->GetId(), device->GetIfIndex()}).second)
                {
                    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
                    Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
                    std::string shared;
                    for (uint8_t t : mine)
                    {
                        for (uint8_t u : all)
                        {
                            const int band = QueueDiscBandOf(disc, t);
                            if (u != t && shared.empty() && band == QueueDiscBandOf(disc, u))
                            {
                                shared = "ToS " + Hex(t) + " and " + Hex(u) + " share "
                                         + (band < 0 ? "its one queue"
                                                     : "its band " + std::to_string(band));
                            }
                        }
                    }
                    if (!shared.empty())
                    {
                        NS_LOG_DEBUG(DescribeEgress(node, device, disc) << ": " << shared);
                        if (first.empty())
                        {
                            first = DescribeEgress(node, device, disc) + " (" + shared + ")";
                        }
                        else
                        {
                            ++more;
                        }
                    }
                }
                const Ipv4Address next
                    = route->GetGateway() == Ipv4Address::GetAny() ? dst : route->GetGateway();
                auto it = nodeOf.find(next);
                node = it == nodeOf.end() ? nullptr : it->second;
            }
        }
    }
    if (first.empty())
    {
        return "";
    }
    return first + (more ? " and " + std::to_string(more) + " more egress(es)" : "");
}

std::set<uint8_t>
TenantPriority::TosInUse()
{
    std::set<uint8_t> tos;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        for (uint32_t a = 0; a < (*it)->GetNApplications(); ++a)
        {
            Ptr<Application> app = (*it)->GetApplication(a);
            std::set<uint8_t> values;
            Ptr<CollectiveRank> rank = DynamicCast<CollectiveRank>(app);
            Ptr<BackgroundFlowSender> sender = DynamicCast<BackgroundFlowSender>(app);
            if (rank && rank->GetJob())
            {
                values = rank->GetJob()->GetTosValues();
            }
            else if (sender && sender->GetTenant())
            {
                values = sender->GetTenant()->GetTosValues();
            }
            tos.insert(values.begin(), values.end());
        }
    }
    return tos;
}

void
TenantPriority::Check(CheckMode mode,
                      const std::string& who,
                      const NodeContainer& servers,
                      const std::set<uint8_t>& own)
{
    NS_LOG_FUNCTION(who << servers.GetN() << own.size());
    if (mode == CHECK_OFF)
    {
        return;
    }
    const std::string shared = FindSharedBand(servers, own, TosInUse());
    if (shared.empty())
    {
        return;
    }
    std::string list;
    for (uint8_t tos : own)
    {
        list += (list.empty() ? "" : ", ") + Hex(tos);
    }
    const std::string line
        = who + " (ToS " + list + ") cannot be kept apart from the other traffic at " + shared
          + ": install PfifoFast on the egresses (EgressQueue::Install) or set PriorityCheck Off";
    if (mode == CHECK_ERROR)
    {
        throw DdnnError(line);
    }
    std::cerr << "ddnn: warning: " << line << "\n";
}

void
TenantPriority::CheckInEvent(EventId& running,
                             CheckMode mode,
                             const std::string& who,
                             const NodeContainer& servers,
                             const std::set<uint8_t>& own)
{
    try
    {
        Check(mode, who, servers, own);
    }
    catch (...)
    {
        if (EventImpl* event = running.PeekEventImpl())
        {
            event->Unref();
        }
        throw;
    }
}

} // namespace ns3
