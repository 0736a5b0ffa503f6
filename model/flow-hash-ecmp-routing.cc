/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-hash-ecmp-routing.h"

#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowHashEcmpRouting");
NS_OBJECT_ENSURE_REGISTERED(FlowHashEcmpRouting);

namespace
{

/** FNV-1a over the bytes of the values: cheap, deterministic, well mixed for small keys. */
uint32_t
Mix(uint32_t hash, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
    {
        hash ^= (value >> (8 * i)) & 0xff;
        hash *= 16777619u;
    }
    return hash;
}

} // namespace

TypeId
FlowHashEcmpRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowHashEcmpRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<FlowHashEcmpRouting>();
    return tid;
}

void
FlowHashEcmpRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_routes.clear();
    Ipv4RoutingProtocol::DoDispose();
}

void
FlowHashEcmpRouting::AddRoute(Ipv4Address destination, const NextHop& hop)
{
    m_routes[destination.Get()].push_back(hop);
}

void
FlowHashEcmpRouting::AddMulticastRoute(Ipv4Address origin,
                                       Ipv4Address group,
                                       uint32_t inputInterface,
                                       const std::vector<uint32_t>& outputs)
{
    m_multicast[{origin.Get(), group.Get(), inputInterface}] = outputs;
}

const std::vector<FlowHashEcmpRouting::NextHop>&
FlowHashEcmpRouting::GetNextHops(Ipv4Address destination) const
{
    static const std::vector<NextHop> none;
    auto it = m_routes.find(destination.Get());
    return it == m_routes.end() ? none : it->second;
}

Ptr<Ipv4Route>
FlowHashEcmpRouting::Lookup(const Ipv4Header& header, Ptr<const Packet> l4) const
{
    auto it = m_routes.find(header.GetDestination().Get());
    if (it == m_routes.end() || it->second.empty())
    {
        return nullptr;
    }
    const std::vector<NextHop>& hops = it->second;
    size_t pick = 0;
    if (hops.size() > 1)
    {
        // The ports are the first 4 bytes of TCP's and UDP's headers.
        uint8_t ports[4] = {0, 0, 0, 0};
        if (l4 && l4->GetSize() >= 4)
        {
            l4->CopyData(ports, 4);
        }
        uint32_t hash = Mix(2166136261u, m_ipv4->GetObject<Node>()->GetId());
        hash = Mix(hash, header.GetSource().Get());
        hash = Mix(hash, header.GetDestination().Get());
        hash = Mix(hash, header.GetProtocol());
        hash = Mix(hash, (ports[0] << 24) | (ports[1] << 16) | (ports[2] << 8) | ports[3]);
        pick = hash % hops.size();
    }
    const NextHop& hop = hops[pick];
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(header.GetDestination());
    route->SetGateway(hop.gateway);
    route->SetOutputDevice(m_ipv4->GetNetDevice(hop.interface));
    route->SetSource(m_ipv4->GetAddress(hop.interface, 0).GetLocal());
    return route;
}

Ptr<Ipv4Route>
FlowHashEcmpRouting::RouteOutput(Ptr<Packet> p,
                                 const Ipv4Header& header,
                                 Ptr<NetDevice>,
                                 Socket::SocketErrno& sockerr)
{
    Ptr<Ipv4Route> route = Lookup(header, p);
    sockerr = route ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return route;
}

bool
FlowHashEcmpRouting::RouteInput(Ptr<const Packet> p,
                                const Ipv4Header& header,
                                Ptr<const NetDevice> idev,
                                DDNN_ROUTING_CALLBACK(UnicastForwardCallback) ucb,
                                DDNN_ROUTING_CALLBACK(MulticastForwardCallback) mcb,
                                DDNN_ROUTING_CALLBACK(LocalDeliverCallback) lcb,
                                DDNN_ROUTING_CALLBACK(ErrorCallback))
{
    const uint32_t iif = m_ipv4->GetInterfaceForDevice(idev);
    if (header.GetDestination().IsMulticast())
    {
        // Every node hears a group's packets (ns-3 keeps no membership), and forwards them
        // along the group's tree.
        if (!lcb.IsNull())
        {
            lcb(p->Copy(), header, iif);
        }
        auto it = m_multicast.find({header.GetSource().Get(), header.GetDestination().Get(), iif});
        if (it != m_multicast.end())
        {
            Ptr<Ipv4MulticastRoute> route = Create<Ipv4MulticastRoute>();
            route->SetGroup(header.GetDestination());
            route->SetOrigin(header.GetSource());
            route->SetParent(iif);
            for (uint32_t out : it->second)
            {
                route->SetOutputTtl(out, Ipv4MulticastRoute::MAX_TTL - 1);
            }
            // ns-3 classifies a forwarded packet by the priority its ToS gives, which its
            // unicast forwarding sets and its multicast forwarding does not: set it here, so
            // the group's packets take their band at every egress of the tree.
            Ptr<Packet> copy = p->Copy();
            SocketPriorityTag priority;
            copy->RemovePacketTag(priority);
            if (const uint8_t value = Socket::IpTos2Priority(header.GetTos()))
            {
                priority.SetPriority(value);
                copy->AddPacketTag(priority);
            }
            mcb(route, copy, header);
            return true;
        }
        return !lcb.IsNull(); // delivered here, or for another protocol of a list to forward
    }
    if (m_ipv4->IsDestinationAddress(header.GetDestination(), iif))
    {
        if (!lcb.IsNull())
        {
            lcb(p, header, iif);
            return true;
        }
        return false;
    }
    if (Ptr<Ipv4Route> route = Lookup(header, p))
    {
        ucb(route, p, header);
        return true;
    }
    // No route: dropped (as no route) by the IP layer, or, in an Ipv4ListRouting, left to the
    // list's other protocols.
    return false;
}

void
FlowHashEcmpRouting::NotifyInterfaceUp(uint32_t)
{
}

void
FlowHashEcmpRouting::NotifyInterfaceDown(uint32_t)
{
}

void
FlowHashEcmpRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
FlowHashEcmpRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
FlowHashEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
FlowHashEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "FlowHashEcmpRouting, node " << m_ipv4->GetObject<Node>()->GetId() << "\n";
    for (const auto& [destination, hops] : m_routes)
    {
        os << "  " << Ipv4Address(destination) << " via";
        for (const NextHop& hop : hops)
        {
            os << " if" << hop.interface << "/" << hop.gateway;
        }
        os << "\n";
    }
}

} // namespace ns3
