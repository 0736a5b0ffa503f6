/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_HASH_ECMP_ROUTING_H
#define FLOW_HASH_ECMP_ROUTING_H

#include "ns3-compat.h"

#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Equal-cost multipath by flow hash: for each destination address a node holds the
 * next hops on its shortest paths, and picks one by a hash of the packet's 5-tuple salted with
 * the node's id, so every packet of a TCP connection takes the same path (no reordering) while
 * connections spread over the paths. The routes come from FabricBuilder::PopulateRoutes.
 * Private to ddnn's topology helpers.
 */
class FlowHashEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();

    /** One next hop: the outgoing interface and the neighbour's address on its link. */
    struct NextHop
    {
        uint32_t interface;
        Ipv4Address gateway;
    };

    void AddRoute(Ipv4Address destination, const NextHop& hop);
    /** The next hops towards `destination` (empty when unknown). */
    const std::vector<NextHop>& GetNextHops(Ipv4Address destination) const;
    /**
     * Forwards `group`'s packets from `origin` that arrive on `inputInterface` out of every
     * interface of `outputs` (MulticastRoutes builds these), as Ipv4StaticRouting's route of
     * the same name does. A node sending to a group uses AddRoute(group, {interface, 0.0.0.0}).
     */
    void AddMulticastRoute(Ipv4Address origin,
                           Ipv4Address group,
                           uint32_t inputInterface,
                           const std::vector<uint32_t>& outputs);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    DDNN_ROUTING_CALLBACK(UnicastForwardCallback) ucb,
                    DDNN_ROUTING_CALLBACK(MulticastForwardCallback) mcb,
                    DDNN_ROUTING_CALLBACK(LocalDeliverCallback) lcb,
                    DDNN_ROUTING_CALLBACK(ErrorCallback) ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /** The route of a packet towards `header`'s destination, or null. */
    Ptr<Ipv4Route> Lookup(const Ipv4Header& header, Ptr<const Packet> l4) const;

    Ptr<Ipv4> m_ipv4;
    std::unordered_map<uint32_t, std::vector<NextHop>> m_routes; //!< by destination address
    //! (origin, group, input interface) -> output interfaces
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> m_multicast;
};

} // namespace ns3

#endif /* FLOW_HASH_ECMP_ROUTING_H */
