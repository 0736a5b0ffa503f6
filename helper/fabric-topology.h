/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "ns3/egress-topology.h"

#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-container.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FabricBuilder;

/**
 * \ingroup ddnn
 * \brief What the multi-switch topologies (LeafSpineHelper, FatTreeHelper) share: the link
 * rates and delays of the server tier and of the switch fabric, routing by flow-hash ECMP, and
 * the servers with their racks (appended as it links them); the egress queues are
 * EgressTopology's.
 */
class FabricTopology : public EgressTopology
{
  public:
    static TypeId GetTypeId();

    /** Every queue disc of the switch fabric (switch to switch), both ends. */
    const QueueDiscContainer& GetFabricQueueDiscs() const;
    /** A tier of switch links in one direction: its name ("leaf_spine_up", ...) and devices. */
    typedef std::pair<std::string, std::vector<Ptr<NetDevice>>> Tier;
    /** The fabric's tiers, from the servers up, each going up then down. */
    const std::vector<Tier>& GetTiers() const;

  protected:
    /**
     * The partition of a distributed run: the rank (system id) of each of `units` racks or
     * pods (`unit` names them in errors), from Ranks and UnitRanks. Throws DdnnError when
     * there are more ranks than units or UnitRanks does not give each unit one rank below
     * Ranks and each rank a unit.
     */
    std::vector<uint32_t> PartitionUnits(uint32_t units, const std::string& unit) const;
    /** The rank of the index-th switch above the racks (spine, core): round robin. */
    uint32_t SpreadRank(uint32_t index) const;
    /** A builder with the chosen egress queue and device queue. */
    FabricBuilder MakeBuilder() const;
    /** Links a new server in rack `rack` to `rackSwitch` (server tier). */
    void AddServer(FabricBuilder& builder, Ptr<Node> server, Ptr<Node> rackSwitch, uint32_t rack);
    /** Links two switches of tier `tier` (e.g. "leaf_spine"). */
    void AddFabricLink(FabricBuilder& builder,
                       Ptr<Node> lower,
                       Ptr<Node> upper,
                       const std::string& tier);

    DataRate m_serverRate;
    DataRate m_fabricRate;
    Time m_serverDelay;
    Time m_fabricDelay;

  private:
    uint32_t m_ranks;
    std::string m_unitRanks;

    QueueDiscContainer m_serverQueueDiscs;
    QueueDiscContainer m_fabricQueueDiscs;
    std::vector<Tier> m_tiers;
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_H */
