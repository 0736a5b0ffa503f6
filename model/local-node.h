/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LOCAL_NODE_H
#define LOCAL_NODE_H

#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Whether `node` belongs to this process of a distributed (MPI) run: its system id
 * is the simulator's. Every process builds the whole network but runs only its own nodes'
 * applications; in a run of one process every node is local.
 */
inline bool
IsLocalNode(Ptr<const Node> node)
{
    return node->GetSystemId() == Simulator::GetSystemId();
}

} // namespace ns3

#endif /* LOCAL_NODE_H */
