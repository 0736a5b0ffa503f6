/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Private to ddnn's sources: which node has an IPv4 address, over every node ns-3 holds.
 */
#ifndef DDNN_IPV4_NODES_H
#define DDNN_IPV4_NODES_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4.h"
#include "ns3/node-list.h"

#include <map>

namespace ns3
{

/** Every node by each IPv4 address of its interfaces (ns-3's NodeList now). */
inline std::map<Ipv4Address, Ptr<Node>>
NodesByIpv4Address()
{
    std::map<Ipv4Address, Ptr<Node>> nodes;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<Ipv4> ipv4 = (*it)->GetObject<Ipv4>();
        for (uint32_t i = 0; ipv4 && i < ipv4->GetNInterfaces(); ++i)
        {
            for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
            {
                nodes[ipv4->GetAddress(i, a).GetLocal()] = *it;
            }
        }
    }
    return nodes;
}

} // namespace ns3

#endif /* DDNN_IPV4_NODES_H */
