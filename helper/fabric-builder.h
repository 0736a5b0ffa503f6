/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_BUILDER_H
#define FABRIC_BUILDER_H

#include "ns3/egress-queue.h"

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-container.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief What the multi-switch topology helpers share: an IPv4 stack whose routing is
 * equal-cost multipath by flow hash, point-to-point links with the chosen EgressQueue on both
 * ends and a /30 subnet each, and the routes along every shortest path.
 */
class FabricBuilder
{
  public:
    /**
     * Links get `egress` on both ends, except that a server's end of LinkServer gets its bands
     * limited to serverBandLimitPackets (EgressQueue::bandLimitPackets; 0: as the switches).
     */
    FabricBuilder(const EgressQueue& egress,
                  uint32_t deviceQueuePackets,
                  uint32_t serverBandLimitPackets = 0);

    /** Installs the IPv4 stack with flow-hash ECMP routing on `nodes`. */
    void InstallStack(NodeContainer nodes) const;
    /**
     * Links a (device 0) and b (device 1) at `rate` and `delay`, puts the egress queue disc on
     * both devices (added to `queueDiscs`) and numbers the link.
     */
    NetDeviceContainer Link(
        Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay, QueueDiscContainer& queueDiscs);
    /** Link() from a server (device 0) to its switch, the server's egress as a server's. */
    NetDeviceContainer LinkServer(Ptr<Node> server,
                                  Ptr<Node> rackSwitch,
                                  DataRate rate,
                                  Time delay,
                                  QueueDiscContainer& queueDiscs);
    /** Fills every node's routes towards every address, over all shortest paths. */
    static void PopulateRoutes(NodeContainer nodes);

  private:
    /** Link() with `aEgress` on a's end and the switches' egress on b's. */
    NetDeviceContainer Connect(Ptr<Node> a,
                               Ptr<Node> b,
                               DataRate rate,
                               Time delay,
                               QueueDiscContainer& queueDiscs,
                               EgressQueue aEgress);

    EgressQueue m_egress;
    uint32_t m_serverBandLimitPackets;
    uint32_t m_deviceQueuePackets;
    uint32_t m_links{0};
};

} // namespace ns3

#endif /* FABRIC_BUILDER_H */
