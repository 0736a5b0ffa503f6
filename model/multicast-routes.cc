/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-routes.h"

#include "flow-hash-ecmp-routing.h"

#include "ns3/channel.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node-list.h"
#include "ns3/one-line-error.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastRoutes");

namespace
{

/** A node's way to a neighbour: its own interface, and the neighbour's. */
struct Hop
{
    uint32_t node;
    uint32_t interface;          //!< on the node the hop leaves
    uint32_t neighbourInterface; //!< on the node it reaches
};

/** The neighbours of `node` over its point-to-point links, by node id. */
std::map<uint32_t, Hop>
Neighbours(Ptr<Node> node)
{
    std::map<uint32_t, Hop> out;
    Ptr<Ipv4> ip = node->GetObject<Ipv4>();
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<NetDevice> device = node->GetDevice(d);
        Ptr<Channel> channel = device->GetChannel();
        if (DynamicCast<LoopbackNetDevice>(device) || !channel || channel->GetNDevices() != 2
            || !ip)
        {
            continue;
        }
        Ptr<NetDevice> other = channel->GetDevice(channel->GetDevice(0) == device ? 1 : 0);
        Ptr<Ipv4> otherIp = other->GetNode()->GetObject<Ipv4>();
        const int32_t mine = ip->GetInterfaceForDevice(device);
        const int32_t theirs = otherIp ? otherIp->GetInterfaceForDevice(other) : -1;
        if (mine >= 0 && theirs >= 0)
        {
            out.emplace(other->GetNode()->GetId(),
                        Hop{other->GetNode()->GetId(),
                            static_cast<uint32_t>(mine),
                            static_cast<uint32_t>(theirs)});
        }
    }
    return out;
}

/**
 * ddnn's routing on a node, which forwards a group's packets at their ToS's band (ns-3's own
 * multicast forwarding leaves them untagged, so a switch would queue them in PfifoFast's
 * band 1 whatever their ToS): the node's FlowHashEcmpRouting (the fabrics), or one added to
 * its Ipv4ListRouting ahead of the others (the single ToR), which forwards groups only.
 */
Ptr<FlowHashEcmpRouting>
GroupRoutingOf(Ptr<Node> node)
{
    Ptr<Ipv4> ip = node->GetObject<Ipv4>();
    Ptr<Ipv4RoutingProtocol> routing = ip ? ip->GetRoutingProtocol() : nullptr;
    if (Ptr<FlowHashEcmpRouting> ecmp = DynamicCast<FlowHashEcmpRouting>(routing))
    {
        return ecmp;
    }
    Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(routing);
    if (!list)
    {
        throw DdnnError("multicast routes: node " + std::to_string(node->GetId())
                        + " routes with neither an Ipv4ListRouting nor FlowHashEcmpRouting");
    }
    for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
    {
        int16_t priority;
        if (Ptr<FlowHashEcmpRouting> ecmp
            = DynamicCast<FlowHashEcmpRouting>(list->GetRoutingProtocol(i, priority)))
        {
            return ecmp;
        }
    }
    Ptr<FlowHashEcmpRouting> groups = CreateObject<FlowHashEcmpRouting>();
    list->AddRoutingProtocol(groups, 100); // first; it passes on what is not a group's
    return groups;
}

/** The group leaves `node` (its source) out of `interface`. */
void
AddSend(Ptr<Node> node, Ipv4Address group, uint32_t interface)
{
    Ptr<Ipv4> ip = node->GetObject<Ipv4>();
    if (Ptr<FlowHashEcmpRouting> ecmp = DynamicCast<FlowHashEcmpRouting>(ip->GetRoutingProtocol()))
    {
        ecmp->AddRoute(group, {interface, Ipv4Address::GetZero()});
        return;
    }
    Ptr<Ipv4StaticRouting> routing = Ipv4StaticRoutingHelper().GetStaticRouting(ip);
    if (!routing)
    {
        throw DdnnError("multicast routes: node " + std::to_string(node->GetId())
                        + " has neither Ipv4StaticRouting nor FlowHashEcmpRouting");
    }
    routing->AddHostRouteTo(group, interface);
}

} // namespace

void
MulticastRoutes::Add(Ptr<Node> source, Ipv4Address group, const NodeContainer& members)
{
    NS_LOG_FUNCTION(source->GetId() << group << members.GetN());
    // Breadth first from the source: each node's parent, and the hop from it.
    std::map<uint32_t, Hop> parentHop; // node -> the hop from its parent into it
    std::map<uint32_t, uint32_t> parent;
    std::deque<uint32_t> queue{source->GetId()};
    std::set<uint32_t> seen{source->GetId()};
    while (!queue.empty())
    {
        const uint32_t id = queue.front();
        queue.pop_front();
        for (const auto& [next, hop] : Neighbours(NodeList::GetNode(id)))
        {
            if (seen.insert(next).second)
            {
                parent[next] = id;
                parentHop[next] = hop;
                queue.push_back(next);
            }
        }
    }
    // The tree: every member's path up to the source, as each node's children.
    std::map<uint32_t, std::set<uint32_t>> children; // node -> its out interfaces
    std::map<uint32_t, uint32_t> inInterface;        // node -> interface from its parent
    for (uint32_t m = 0; m < members.GetN(); ++m)
    {
        uint32_t id = members.Get(m)->GetId();
        if (id == source->GetId())
        {
            continue;
        }
        if (!parent.count(id))
        {
            throw DdnnError("multicast routes: node " + std::to_string(id)
                            + " cannot be reached from node " + std::to_string(source->GetId()));
        }
        while (id != source->GetId() && !inInterface.count(id))
        {
            const Hop& hop = parentHop.at(id);
            inInterface[id] = hop.neighbourInterface;
            children[parent.at(id)].insert(hop.interface);
            id = parent.at(id);
        }
    }
    if (children.empty())
    {
        return;
    }
    const std::set<uint32_t>& out = children.at(source->GetId());
    if (out.size() != 1)
    {
        throw DdnnError("multicast routes: node " + std::to_string(source->GetId())
                        + " would send the group out of " + std::to_string(out.size())
                        + " devices; a source sends it out of one");
    }
    Ptr<Ipv4> sourceIp = source->GetObject<Ipv4>();
    const Ipv4Address origin = sourceIp->GetAddress(*out.begin(), 0).GetLocal();
    AddSend(source, group, *out.begin());
    for (const auto& [id, interfaces] : children)
    {
        if (id == source->GetId())
        {
            continue;
        }
        GroupRoutingOf(NodeList::GetNode(id))
            ->AddMulticastRoute(origin,
                                group,
                                inInterface.at(id),
                                std::vector<uint32_t>(interfaces.begin(), interfaces.end()));
        NS_LOG_INFO("node " << id << ": " << group << " from " << origin << " in interface "
                            << inInterface.at(id) << ", out " << interfaces.size());
    }
}

} // namespace ns3
