/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-builder.h"

#include "../model/flow-hash-ecmp-routing.h"

#include "ns3/channel.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-routing-helper.h"
#include "ns3/one-line-error.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"

#include <deque>
#include <limits>
#include <map>

namespace ns3
{

namespace
{

/** Installs FlowHashEcmpRouting through InternetStackHelper. */
class FlowHashEcmpRoutingHelper : public Ipv4RoutingHelper
{
  public:
    FlowHashEcmpRoutingHelper*
    Copy() const override
    {
        return new FlowHashEcmpRoutingHelper(*this);
    }

    Ptr<Ipv4RoutingProtocol>
    Create(Ptr<Node>) const override
    {
        return CreateObject<FlowHashEcmpRouting>();
    }
};

} // namespace

FabricBuilder::FabricBuilder(const EgressQueue& egress,
                             uint32_t deviceQueuePackets,
                             uint32_t serverBandLimitPackets)
    : m_egress(egress)
    , m_serverBandLimitPackets(serverBandLimitPackets)
    , m_deviceQueuePackets(deviceQueuePackets)
{
}

void
FabricBuilder::InstallStack(NodeContainer nodes) const
{
    InternetStackHelper stack;
    stack.SetRoutingHelper(FlowHashEcmpRoutingHelper());
    stack.Install(nodes);
}

NetDeviceContainer
FabricBuilder::Link(
    Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay, QueueDiscContainer& queueDiscs)
{
    return Connect(a, b, rate, delay, queueDiscs, m_egress);
}

NetDeviceContainer
FabricBuilder::LinkServer(Ptr<Node> server,
                          Ptr<Node> rackSwitch,
                          DataRate rate,
                          Time delay,
                          QueueDiscContainer& queueDiscs)
{
    EgressQueue serverEgress = m_egress;
    serverEgress.bandLimitPackets = m_serverBandLimitPackets;
    return Connect(server, rackSwitch, rate, delay, queueDiscs, serverEgress);
}

NetDeviceContainer
FabricBuilder::Connect(Ptr<Node> a,
                       Ptr<Node> b,
                       DataRate rate,
                       Time delay,
                       QueueDiscContainer& queueDiscs,
                       EgressQueue aEgress)
{
    if (m_links >= (1u << 22))
    {
        throw DdnnError("fabric: more than 2^22 links do not fit 10.0.0.0/8 in /30 subnets");
    }
    if (a->GetSystemId() != b->GetSystemId() && delay.IsZero())
    {
        // The distributed simulator's lookahead is the delay of the links between ranks.
        throw DdnnError("fabric: the link between node " + std::to_string(a->GetId()) + " (rank "
                        + std::to_string(a->GetSystemId()) + ") and node "
                        + std::to_string(b->GetId()) + " (rank " + std::to_string(b->GetSystemId())
                        + ") has no delay, expected a delay above 0 on a link between ranks");
    }
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    link.SetQueue("ns3::DropTailQueue<Packet>",
                  "MaxSize",
                  QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, m_deviceQueuePackets)));
    NetDeviceContainer devices = link.Install(a, b);
    // The queue disc goes on before the addresses, else the address helper installs ns-3's.
    EgressQueue egress = m_egress;
    for (EgressQueue* end : {&aEgress, &egress})
    {
        end->linkRate = rate;
        end->linkDelay = delay;
    }
    for (uint32_t end = 0; end < 2; ++end)
    {
        QueueDiscContainer installed
            = (end == 0 ? aEgress : egress).Helper().Install(devices.Get(end));
        EgressQueue::CheckBands(installed);
        queueDiscs.Add(installed);
    }
    Ipv4AddressHelper addresses;
    addresses.SetBase(Ipv4Address((10u << 24) + 4 * m_links), Ipv4Mask("255.255.255.252"));
    addresses.Assign(devices);
    ++m_links;
    return devices;
}

void
FabricBuilder::PopulateRoutes(NodeContainer nodes)
{
    // The graph of point-to-point links: node -> (neighbour, own interface, neighbour's address).
    struct Edge
    {
        uint32_t neighbour;
        uint32_t interface;
        Ipv4Address gateway;
    };

    std::map<uint32_t, uint32_t> indexOf; // node id -> index in `nodes`
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        indexOf[nodes.Get(i)->GetId()] = i;
    }
    std::vector<std::vector<Edge>> edges(nodes.GetN());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Ipv4> ipv4 = nodes.Get(i)->GetObject<Ipv4>();
        for (uint32_t d = 0; d < nodes.Get(i)->GetNDevices(); ++d)
        {
            Ptr<NetDevice> device = nodes.Get(i)->GetDevice(d);
            Ptr<Channel> channel = device->GetChannel();
            const int32_t interface = ipv4->GetInterfaceForDevice(device);
            if (!channel || channel->GetNDevices() != 2 || interface < 0)
            {
                continue;
            }
            Ptr<NetDevice> peer = channel->GetDevice(channel->GetDevice(0) == device ? 1 : 0);
            auto it = indexOf.find(peer->GetNode()->GetId());
            if (it == indexOf.end())
            {
                continue;
            }
            Ptr<Ipv4> peerIpv4 = peer->GetNode()->GetObject<Ipv4>();
            const int32_t peerInterface = peerIpv4->GetInterfaceForDevice(peer);
            edges[i].push_back({it->second,
                                static_cast<uint32_t>(interface),
                                peerIpv4->GetAddress(peerInterface, 0).GetLocal()});
        }
    }
    const uint32_t unreached = std::numeric_limits<uint32_t>::max();
    for (uint32_t target = 0; target < nodes.GetN(); ++target)
    {
        // Hop counts to the target, breadth first.
        std::vector<uint32_t> hops(nodes.GetN(), unreached);
        std::deque<uint32_t> queue{target};
        hops[target] = 0;
        while (!queue.empty())
        {
            const uint32_t n = queue.front();
            queue.pop_front();
            for (const Edge& e : edges[n])
            {
                if (hops[e.neighbour] == unreached)
                {
                    hops[e.neighbour] = hops[n] + 1;
                    queue.push_back(e.neighbour);
                }
            }
        }
        Ptr<Ipv4> targetIpv4 = nodes.Get(target)->GetObject<Ipv4>();
        for (uint32_t n = 0; n < nodes.GetN(); ++n)
        {
            if (n == target || hops[n] == unreached)
            {
                continue;
            }
            Ptr<FlowHashEcmpRouting> routing = DynamicCast<FlowHashEcmpRouting>(
                nodes.Get(n)->GetObject<Ipv4>()->GetRoutingProtocol());
            if (!routing)
            {
                throw DdnnError("fabric: node " + std::to_string(nodes.Get(n)->GetId())
                                + " was not set up by FabricBuilder::InstallStack");
            }
            for (const Edge& e : edges[n])
            {
                if (hops[e.neighbour] + 1 != hops[n])
                {
                    continue; // not on a shortest path
                }
                for (uint32_t i = 1; i < targetIpv4->GetNInterfaces(); ++i)
                {
                    routing->AddRoute(targetIpv4->GetAddress(i, 0).GetLocal(),
                                      {e.interface, e.gateway});
                }
            }
        }
    }
}

} // namespace ns3
