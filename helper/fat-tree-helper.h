/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAT_TREE_HELPER_H
#define FAT_TREE_HELPER_H

#include "ns3/fabric-topology.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A k-ary fat tree (Al-Fares et al., 2008): k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 core switches, k/2 servers per edge switch, k^3/4 servers in all; every
 * switch-to-switch link at FabricDataRate, so the tree is not oversubscribed when it equals
 * ServerDataRate. Servers are numbered edge switch by edge switch (their rack).
 */
class FatTreeHelper : public FabricTopology
{
  public:
    static TypeId GetTypeId();

    /** Builds the network; throws DdnnError for an odd K. */
    void Create() override;
    /** K^3/4. */
    uint32_t GetPlannedServerCount() const override;
    /** Server, edge, aggregation, core and back down: 6. */
    uint32_t GetPathLinks() const override;
    uint64_t GetPlannedLinkCount() const override;
    uint64_t GetPlannedNodeCount() const override;
    void CheckConfig() const override;

  private:
    uint32_t m_k;
};

} // namespace ns3

#endif /* FAT_TREE_HELPER_H */
