/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-helper.h"

#include "fabric-builder.h"

#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeHelper");

NS_OBJECT_ENSURE_REGISTERED(FatTreeHelper);
[[maybe_unused]] static const bool g_registered
    = ServerTopology::Register("fat-tree", &FatTreeHelper::GetTypeId);

TypeId
FatTreeHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FatTreeHelper")
                            .SetParent<FabricTopology>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<FatTreeHelper>()
                            .AddAttribute("K",
                                          "Switch radix k (even): k^3/4 servers.",
                                          UintegerValue(4),
                                          MakeUintegerAccessor(&FatTreeHelper::m_k),
                                          MakeUintegerChecker<uint32_t>(2, 16));
    return tid;
}

uint32_t
FatTreeHelper::GetPlannedServerCount() const
{
    return m_k * m_k * m_k / 4;
}

uint32_t
FatTreeHelper::GetPathLinks() const
{
    return 6;
}

uint64_t
FatTreeHelper::GetPlannedLinkCount() const
{
    const uint64_t k = m_k;
    return 3 * k * k * k / 4; // server-edge, edge-aggregation, aggregation-core
}

uint64_t
FatTreeHelper::GetPlannedNodeCount() const
{
    const uint64_t k = m_k;
    return GetPlannedServerCount() + 5 * k * k / 4; // servers, then edge, aggregation, core
}

void
FatTreeHelper::CheckConfig() const
{
    if (m_k % 2 != 0)
    {
        throw DdnnError("ns3::FatTreeHelper::K: expected an even radix, got "
                        + std::to_string(m_k));
    }
}

void
FatTreeHelper::Create()
{
    NS_LOG_FUNCTION(this << m_k);
    CheckConfig();
    const uint32_t half = m_k / 2;
    FabricBuilder fabric = MakeBuilder();
    NodeContainer servers;
    NodeContainer edges;
    NodeContainer aggregations;
    NodeContainer cores;
    // A distributed run's partition: each pod (its servers, edge and aggregation switches) on
    // one rank.
    const std::vector<uint32_t> rankOf = PartitionUnits(m_k, "pod");
    for (uint32_t s = 0; s < m_k * half * half; ++s)
    {
        servers.Create(1, rankOf[s / (half * half)]);
    }
    for (uint32_t e = 0; e < m_k * half; ++e)
    {
        edges.Create(1, rankOf[e / half]);
        aggregations.Create(1, rankOf[e / half]);
    }
    for (uint32_t c = 0; c < half * half; ++c)
    {
        cores.Create(1, SpreadRank(c));
    }
    NodeContainer all(servers, edges, aggregations, cores);
    fabric.InstallStack(all);
    // Edge switch e (pod e / half) serves servers e*half .. e*half+half-1.
    for (uint32_t s = 0; s < servers.GetN(); ++s)
    {
        AddServer(fabric, servers.Get(s), edges.Get(s / half), s / half);
    }
    for (uint32_t pod = 0; pod < m_k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                AddFabricLink(fabric,
                              edges.Get(pod * half + e),
                              aggregations.Get(pod * half + a),
                              "edge_aggregation");
            }
        }
        // Aggregation switch a of every pod reaches cores a*half .. a*half+half-1.
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                AddFabricLink(fabric,
                              aggregations.Get(pod * half + a),
                              cores.Get(a * half + c),
                              "aggregation_core");
            }
        }
    }
    FabricBuilder::PopulateRoutes(all);
}

} // namespace ns3
