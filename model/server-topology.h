/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SERVER_TOPOLOGY_H
#define SERVER_TOPOLOGY_H

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "type-id-registry.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief What the tenants, their helpers and the utilization meter need of a network: its
 * servers, each one's IPv4 address and the device that connects it (its uplink, a
 * point-to-point device whose channel's other end is its downlink).
 *
 * ServerList implements it, over the nodes of any topology built with ns-3's own helpers (and
 * the topologies ddnn builds are ServerLists, through EgressTopology); a user's own class does
 * in a few lines.
 */
class ServerTopology : public Object, public RegisteredTypes<ServerTopology>
{
  public:
    static TypeId GetTypeId();

    /** Builds the network its attributes describe (a registered topology must); the default
     * throws DdnnError. */
    virtual void Create();
    /** The servers Create() builds, from the attributes (before Create() too); the default:
     * GetServerCount(). */
    virtual uint32_t GetPlannedServerCount() const;
    /** Links on the longest path between two servers; the default: 2 (through one switch). */
    virtual uint32_t GetPathLinks() const;
    /** Links Create() builds, from the attributes; the default: one per server. */
    virtual uint64_t GetPlannedLinkCount() const;
    /** Nodes Create() builds, from the attributes; the default: the servers and one switch. */
    virtual uint64_t GetPlannedNodeCount() const;
    /** Checks how the attributes combine (Create() calls it first); throws DdnnError
     * "ns3::Type::Attribute: ..." naming the attribute at fault. The default: nothing to check. */
    virtual void CheckConfig() const;

    virtual uint32_t GetServerCount() const = 0;
    virtual Ptr<Node> GetServer(uint32_t i) const = 0;
    virtual Ipv4Address GetServerAddress(uint32_t i) const = 0;
    /** The server's device towards the network (its uplink). */
    virtual Ptr<NetDevice> GetServerDevice(uint32_t i) const = 0;

    /** The rack (the switch a server hangs off) of server `i`: 0 for one-rack networks. */
    virtual uint32_t GetRackOf(uint32_t i) const;

    /** Every server, in order. */
    NodeContainer GetServers() const;
};

/** The registry of ServerTopology's choices, defined in its own file. */
template<>
NamedRegistry<TypeId (*)()>& RegisteredTypes<ServerTopology>::Registry();

/**
 * \ingroup ddnn
 * \brief A ServerTopology as a list of servers, each with its address, device and rack.
 *
 * Built over nodes that already have an IPv4 stack and addresses, each server's address and
 * device are those of its first interface that is not the loopback, all in rack 0. A topology
 * that builds its own servers (FabricTopology) derives from it and appends each one.
 */
class ServerList : public ServerTopology
{
  public:
    static TypeId GetTypeId();
    ServerList() = default;
    /** Throws DdnnError when a node has no IPv4 address besides the loopback. */
    explicit ServerList(NodeContainer servers);

    uint32_t GetServerCount() const override;
    Ptr<Node> GetServer(uint32_t i) const override;
    Ipv4Address GetServerAddress(uint32_t i) const override;
    Ptr<NetDevice> GetServerDevice(uint32_t i) const override;
    uint32_t GetRackOf(uint32_t i) const override;

  protected:
    /** Appends a server with its address, its device towards the network and its rack. */
    void AppendServer(Ptr<Node> server, Ipv4Address address, Ptr<NetDevice> device, uint32_t rack);

  private:
    NodeContainer m_servers;
    std::vector<Ipv4Address> m_addresses;
    std::vector<Ptr<NetDevice>> m_devices;
    std::vector<uint32_t> m_racks;
};

} // namespace ns3

#endif /* SERVER_TOPOLOGY_H */
