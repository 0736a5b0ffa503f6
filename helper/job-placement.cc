/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-placement.h"

#include "ns3/one-line-error.h"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace ns3
{

Ptr<ServerList>
PlaceJob(Ptr<ServerTopology> topology,
         const std::string& placement,
         uint32_t workers,
         std::set<uint32_t>* taken)
{
    const uint32_t servers = topology->GetServerCount();
    const uint32_t free = servers - (taken ? static_cast<uint32_t>(taken->size()) : 0);
    auto fail = [&](const std::string& what) {
        throw DdnnError("placement '" + placement + "': " + what);
    };
    std::vector<uint32_t> chosen;
    if (placement == "packed" || placement == "spread")
    {
        if (workers > free)
        {
            fail(std::to_string(workers) + " workers do not fit " + std::to_string(free)
                 + (free < servers ? " free" : "") + " servers");
        }
        std::map<uint32_t, std::vector<uint32_t>> racks; // rack -> its free servers, in order
        for (uint32_t i = 0; i < servers; ++i)
        {
            if (!taken || !taken->count(i))
            {
                racks[topology->GetRackOf(i)].push_back(i);
            }
        }
        for (size_t round = 0; chosen.size() < workers; ++round)
        {
            for (const auto& rack : racks)
            {
                if (placement == "packed")
                {
                    chosen.insert(chosen.end(), rack.second.begin(), rack.second.end());
                }
                else if (round < rack.second.size())
                {
                    chosen.push_back(rack.second[round]);
                }
            }
        }
        chosen.resize(workers);
    }
    else
    {
        std::stringstream list(placement);
        std::string item;
        std::set<uint32_t> seen;
        while (std::getline(list, item, ','))
        {
            char* end = nullptr;
            const unsigned long server = std::strtoul(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || item[0] == '-')
            {
                fail("expected packed, spread or server indices like 0,5,9; got '" + item + "'");
            }
            if (server >= servers)
            {
                fail("server " + item + " does not exist (the topology has "
                     + std::to_string(servers) + ")");
            }
            if (!seen.insert(server).second)
            {
                fail("server " + item + " appears twice");
            }
            chosen.push_back(static_cast<uint32_t>(server));
        }
        if (chosen.size() != workers)
        {
            fail("lists " + std::to_string(chosen.size()) + " servers for "
                 + std::to_string(workers) + " workers");
        }
    }
    NodeContainer nodes;
    for (uint32_t i : chosen)
    {
        nodes.Add(topology->GetServer(i));
        if (taken)
        {
            taken->insert(i);
        }
    }
    return CreateObject<ServerList>(nodes);
}

} // namespace ns3
