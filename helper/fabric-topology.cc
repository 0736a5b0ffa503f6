/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology.h"

#include "fabric-builder.h"

#include "../model/ns3-compat.h"
#include "ns3/one-line-error.h"

#include "ns3/enum.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopology");

NS_OBJECT_ENSURE_REGISTERED(FabricTopology);

TypeId
FabricTopology::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FabricTopology")
              .SetParent<EgressTopology>()
              .SetGroupName("Ddnn")
              .AddAttribute("ServerDataRate",
                            "Rate of every server link.",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&FabricTopology::m_serverRate),
                            MakeDataRateChecker())
              .AddAttribute("FabricDataRate",
                            "Rate of every switch-to-switch link.",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&FabricTopology::m_fabricRate),
                            MakeDataRateChecker())
              .AddAttribute("ServerDelay",
                            "Propagation delay of every server link.",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&FabricTopology::m_serverDelay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("FabricDelay",
                            "Propagation delay of every switch-to-switch link.",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&FabricTopology::m_fabricDelay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("Ranks",
                            "The processes (system ids) of a distributed run the fabric is "
                            "split over: each gets whole racks (leaf-spine) or pods (fat tree), "
                            "in consecutive blocks, and the spine or core switches round robin; "
                            "1: one process.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&FabricTopology::m_ranks),
                            MakeUintegerChecker<uint32_t>(1, 65536))
              .AddAttribute("UnitRanks",
                            "Overrides the blocks of Ranks: the rank of each rack (leaf-spine) "
                            "or pod (fat tree), in order, blank-separated; empty: the blocks.",
                            StringValue(""),
                            MakeStringAccessor(&FabricTopology::m_unitRanks),
                            MakeStringChecker());
    return tid;
}

std::vector<uint32_t>
FabricTopology::PartitionUnits(uint32_t units, const std::string& unit) const
{
    const std::string name = GetInstanceTypeId().GetName();
    if (m_ranks > units)
    {
        throw DdnnError(name + "::Ranks: " + std::to_string(m_ranks)
                        + " ranks, expected at most the " + std::to_string(units) + " " + unit
                        + "s (each rank gets one or more whole " + unit + "s)");
    }
    std::vector<uint32_t> ranks;
    if (m_unitRanks.empty())
    {
        for (uint32_t u = 0; u < units; ++u)
        {
            ranks.push_back(static_cast<uint32_t>(static_cast<uint64_t>(u) * m_ranks / units));
        }
        return ranks;
    }
    std::istringstream words(m_unitRanks);
    std::string word;
    const std::string expected = ", expected the rank (0.." + std::to_string(m_ranks - 1)
                                 + ") of each of the " + std::to_string(units) + " " + unit
                                 + "s once, in order";
    while (words >> word)
    {
        if (word.find_first_not_of("0123456789") != std::string::npos || word.size() > 5
            || std::stoul(word) >= m_ranks)
        {
            throw DdnnError(name + "::UnitRanks: '" + word + "' in '" + m_unitRanks + "'"
                            + expected);
        }
        ranks.push_back(std::stoul(word));
    }
    if (ranks.size() != units)
    {
        throw DdnnError(name + "::UnitRanks: '" + m_unitRanks + "' names "
                        + std::to_string(ranks.size()) + " " + unit + "s" + expected);
    }
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (std::find(ranks.begin(), ranks.end(), r) == ranks.end())
        {
            throw DdnnError(name + "::UnitRanks: '" + m_unitRanks + "' gives rank "
                            + std::to_string(r) + " no " + unit + expected
                            + " (every rank at least one)");
        }
    }
    return ranks;
}

uint32_t
FabricTopology::SpreadRank(uint32_t index) const
{
    return index % m_ranks;
}

FabricBuilder
FabricTopology::MakeBuilder() const
{
    return FabricBuilder(MakeEgress(), GetDeviceQueuePackets(), GetServerBandLimit());
}

void
FabricTopology::AddServer(FabricBuilder& builder,
                          Ptr<Node> server,
                          Ptr<Node> rackSwitch,
                          uint32_t rack)
{
    NS_LOG_FUNCTION(this << server->GetId() << rack);
    NetDeviceContainer link
        = builder.LinkServer(server, rackSwitch, m_serverRate, m_serverDelay, m_serverQueueDiscs);
    Ptr<Ipv4> ipv4 = server->GetObject<Ipv4>();
    AppendServer(server,
                 ipv4->GetAddress(ipv4->GetInterfaceForDevice(link.Get(0)), 0).GetLocal(),
                 link.Get(0),
                 rack);
}

void
FabricTopology::AddFabricLink(FabricBuilder& builder,
                              Ptr<Node> lower,
                              Ptr<Node> upper,
                              const std::string& tier)
{
    NetDeviceContainer link
        = builder.Link(lower, upper, m_fabricRate, m_fabricDelay, m_fabricQueueDiscs);
    // A named array: gcc 14 takes pairs in a braced list for dangling references.
    const std::pair<const char*, Ptr<NetDevice>> directions[]
        = {{"_up", link.Get(0)}, {"_down", link.Get(1)}};
    for (const auto& [direction, device] : directions)
    {
        const std::string name = tier + direction;
        auto it = std::find_if(
            m_tiers.begin(), m_tiers.end(), [&](const Tier& t) { return t.first == name; });
        if (it == m_tiers.end())
        {
            m_tiers.push_back({name, {}});
            it = m_tiers.end() - 1;
        }
        it->second.push_back(device);
    }
}

const std::vector<FabricTopology::Tier>&
FabricTopology::GetTiers() const
{
    return m_tiers;
}

const QueueDiscContainer&
FabricTopology::GetFabricQueueDiscs() const
{
    return m_fabricQueueDiscs;
}

} // namespace ns3
