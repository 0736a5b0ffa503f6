/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "server-topology.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ServerTopology");

NS_OBJECT_ENSURE_REGISTERED(ServerTopology);
NS_OBJECT_ENSURE_REGISTERED(ServerList);

TypeId
ServerTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ServerTopology").SetParent<Object>().SetGroupName("Ddnn");
    return tid;
}

DDNN_TYPE_REGISTRY(ServerTopology, "topology");

void
ServerTopology::Create()
{
    throw DdnnError(GetInstanceTypeId().GetName() + ": builds no network of its own");
}

uint32_t
ServerTopology::GetPlannedServerCount() const
{
    return GetServerCount();
}

uint32_t
ServerTopology::GetPathLinks() const
{
    return 2;
}

uint64_t
ServerTopology::GetPlannedLinkCount() const
{
    return GetPlannedServerCount();
}

uint64_t
ServerTopology::GetPlannedNodeCount() const
{
    return GetPlannedServerCount() + 1;
}

void
ServerTopology::CheckConfig() const
{
}

uint32_t
ServerTopology::GetRackOf(uint32_t) const
{
    return 0;
}

NodeContainer
ServerTopology::GetServers() const
{
    NodeContainer servers;
    for (uint32_t i = 0; i < GetServerCount(); ++i)
    {
        servers.Add(GetServer(i));
    }
    return servers;
}

TypeId
ServerList::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ServerList")
                            .SetParent<ServerTopology>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<ServerList>();
    return tid;
}

ServerList::ServerList(NodeContainer servers)
{
    NS_LOG_FUNCTION(this << servers.GetN());
    for (uint32_t i = 0; i < servers.GetN(); ++i)
    {
        Ptr<Ipv4> ipv4 = servers.Get(i)->GetObject<Ipv4>();
        bool found = false;
        for (uint32_t k = 0; ipv4 && k < ipv4->GetNInterfaces() && !found; ++k)
        {
            if (ipv4->GetNAddresses(k) > 0 && !ipv4->GetAddress(k, 0).GetLocal().IsLocalhost())
            {
                AppendServer(
                    servers.Get(i), ipv4->GetAddress(k, 0).GetLocal(), ipv4->GetNetDevice(k), 0);
                found = true;
            }
        }
        if (!found)
        {
            throw DdnnError("ns3::ServerList: node " + std::to_string(servers.Get(i)->GetId())
                            + " has no IPv4 address besides the loopback");
        }
    }
}

uint32_t
ServerList::GetServerCount() const
{
    return m_servers.GetN();
}

Ptr<Node>
ServerList::GetServer(uint32_t i) const
{
    return m_servers.Get(i);
}

Ipv4Address
ServerList::GetServerAddress(uint32_t i) const
{
    return m_addresses.at(i);
}

Ptr<NetDevice>
ServerList::GetServerDevice(uint32_t i) const
{
    return m_devices.at(i);
}

uint32_t
ServerList::GetRackOf(uint32_t i) const
{
    return m_racks.at(i);
}

void
ServerList::AppendServer(Ptr<Node> server,
                         Ipv4Address address,
                         Ptr<NetDevice> device,
                         uint32_t rack)
{
    m_servers.Add(server);
    m_addresses.push_back(address);
    m_devices.push_back(device);
    m_racks.push_back(rack);
}

} // namespace ns3
