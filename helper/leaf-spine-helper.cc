/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "leaf-spine-helper.h"

#include "fabric-builder.h"

#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeafSpineHelper");

NS_OBJECT_ENSURE_REGISTERED(LeafSpineHelper);
[[maybe_unused]] static const bool g_registered
    = ServerTopology::Register("leaf-spine", &LeafSpineHelper::GetTypeId);

TypeId
LeafSpineHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LeafSpineHelper")
                            .SetParent<FabricTopology>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<LeafSpineHelper>()
                            .AddAttribute("Leaves",
                                          "Racks, each with its leaf switch.",
                                          UintegerValue(2),
                                          MakeUintegerAccessor(&LeafSpineHelper::m_leaves),
                                          MakeUintegerChecker<uint32_t>(1, 1000))
                            .AddAttribute("ServersPerLeaf",
                                          "Servers in each rack.",
                                          UintegerValue(4),
                                          MakeUintegerAccessor(&LeafSpineHelper::m_serversPerLeaf),
                                          MakeUintegerChecker<uint32_t>(1, 1000))
                            .AddAttribute("Spines",
                                          "Spine switches, each linked to every leaf.",
                                          UintegerValue(2),
                                          MakeUintegerAccessor(&LeafSpineHelper::m_spines),
                                          MakeUintegerChecker<uint32_t>(1, 1000));
    return tid;
}

uint32_t
LeafSpineHelper::GetPlannedServerCount() const
{
    return m_leaves * m_serversPerLeaf;
}

uint32_t
LeafSpineHelper::GetPathLinks() const
{
    return m_leaves > 1 ? 4 : 2;
}

uint64_t
LeafSpineHelper::GetPlannedLinkCount() const
{
    return static_cast<uint64_t>(m_leaves) * m_serversPerLeaf
           + static_cast<uint64_t>(m_leaves) * m_spines;
}

uint64_t
LeafSpineHelper::GetPlannedNodeCount() const
{
    return static_cast<uint64_t>(m_leaves) * m_serversPerLeaf + m_leaves + m_spines;
}

void
LeafSpineHelper::CheckConfig() const
{
    const uint64_t servers = static_cast<uint64_t>(m_leaves) * m_serversPerLeaf;
    if (servers < 2 || servers > 100000)
    {
        throw DdnnError("ns3::LeafSpineHelper: expected 2 to 100000 servers (Leaves x "
                        "ServersPerLeaf), got "
                        + std::to_string(servers));
    }
}

void
LeafSpineHelper::Create()
{
    NS_LOG_FUNCTION(this << m_leaves << m_serversPerLeaf << m_spines);
    CheckConfig();
    const uint64_t servers = static_cast<uint64_t>(m_leaves) * m_serversPerLeaf;
    // A distributed run's partition: each rack (its leaf and servers) on one rank.
    const std::vector<uint32_t> rankOf = PartitionUnits(m_leaves, "rack");
    FabricBuilder fabric = MakeBuilder();
    NodeContainer serverNodes;
    for (uint64_t i = 0; i < servers; ++i)
    {
        serverNodes.Create(1, rankOf[i / m_serversPerLeaf]);
    }
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        m_leafNodes.Create(1, rankOf[leaf]);
    }
    for (uint32_t spine = 0; spine < m_spines; ++spine)
    {
        m_spineNodes.Create(1, SpreadRank(spine));
    }
    NodeContainer all(serverNodes, m_leafNodes, m_spineNodes);
    fabric.InstallStack(all);
    for (uint32_t i = 0; i < servers; ++i)
    {
        const uint32_t rack = i / m_serversPerLeaf;
        AddServer(fabric, serverNodes.Get(i), m_leafNodes.Get(rack), rack);
    }
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        for (uint32_t spine = 0; spine < m_spines; ++spine)
        {
            AddFabricLink(fabric, m_leafNodes.Get(leaf), m_spineNodes.Get(spine), "leaf_spine");
        }
    }
    FabricBuilder::PopulateRoutes(all);
}

Ptr<Node>
LeafSpineHelper::GetLeaf(uint32_t leaf) const
{
    return m_leafNodes.Get(leaf);
}

Ptr<Node>
LeafSpineHelper::GetSpine(uint32_t spine) const
{
    return m_spineNodes.Get(spine);
}

} // namespace ns3
