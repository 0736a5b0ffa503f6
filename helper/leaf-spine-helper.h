/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAF_SPINE_HELPER_H
#define LEAF_SPINE_HELPER_H

#include "ns3/fabric-topology.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A two-tier Clos: Leaves racks of ServersPerLeaf servers, every leaf linked to every
 * spine, so a leaf's oversubscription is ServersPerLeaf x ServerDataRate over Spines x
 * FabricDataRate. Servers are numbered rack by rack (server i is in rack i / ServersPerLeaf).
 */
class LeafSpineHelper : public FabricTopology
{
  public:
    static TypeId GetTypeId();

    /** Builds the network; throws DdnnError when it would hold fewer than 2 servers. */
    void Create() override;
    /** Leaves x ServersPerLeaf. */
    uint32_t GetPlannedServerCount() const override;
    /** Server, leaf, spine, leaf, server: 4 (2 with one leaf). */
    uint32_t GetPathLinks() const override;
    uint64_t GetPlannedLinkCount() const override;
    uint64_t GetPlannedNodeCount() const override;
    void CheckConfig() const override;

    Ptr<Node> GetLeaf(uint32_t leaf) const;
    Ptr<Node> GetSpine(uint32_t spine) const;

  private:
    uint32_t m_leaves;
    uint32_t m_serversPerLeaf;
    uint32_t m_spines;
    NodeContainer m_leafNodes;
    NodeContainer m_spineNodes;
};

} // namespace ns3

#endif /* LEAF_SPINE_HELPER_H */
