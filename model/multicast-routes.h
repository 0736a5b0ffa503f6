/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MULTICAST_ROUTES_H
#define MULTICAST_ROUTES_H

#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/node.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Static IPv4 multicast routes for one group and one source on any network of
 * point-to-point links (ns-3 has no multicast routing protocol): a shortest-path tree from
 * the source to the members, each node of the tree forwarding what comes from its parent to
 * its children, the way a switch replicates a group's packets.
 *
 * The tree is breadth first from the source over every point-to-point link, a node's parent
 * the neighbour of lowest node id among those nearest the source, so that the same call
 * always builds the same tree. The routes match the source's address (the one its packets
 * leave with), so several sources of one group each have their own tree. The source's
 * route goes to its Ipv4StaticRouting (in an Ipv4ListRouting, as InternetStackHelper makes
 * it) or to the fabrics' ECMP routing; a forwarding node's to the fabrics' ECMP routing, or
 * to one that forwards groups only, added first to its Ipv4ListRouting: unlike ns-3's own
 * multicast forwarding it keeps each packet in the band its ToS gives.
 */
class MulticastRoutes
{
  public:
    /**
     * Routes `group` from `source` to every node of `members` (the source among them is
     * skipped). A DdnnError names a member the source cannot reach, a node of the tree
     * without either routing, or a source whose tree leaves it by more than one device.
     */
    static void Add(Ptr<Node> source, Ipv4Address group, const NodeContainer& members);
};

} // namespace ns3

#endif /* MULTICAST_ROUTES_H */
