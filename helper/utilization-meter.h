/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UTILIZATION_METER_H
#define UTILIZATION_METER_H

#include "ns3/server-topology.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/tenant-kind.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Link utilization per tenant on every server's uplink and downlink (the other end
 * of its point-to-point link), on any ServerTopology, from the bytes each device starts to
 * transmit (headers included), attributed to a tenant by the TCP ports of the packet:
 * the ports the servers' CollectiveRank transports and background sinks listen on, read off
 * the servers when the first packet passes (so data, ACKs and handshakes of a tenant's
 * connections all count as that tenant's; anything else as "none"). Those ports lie below
 * ns-3's ephemeral range, so no connection's other end can take one of them.
 */
class UtilizationMeter
{
  public:
    /** Kept per link and tenant: bytes per `interval`, and totals within [from, until). */
    UtilizationMeter(Ptr<ServerTopology> network, Time interval, Time from, Time until);

    /** Mean over the server uplinks of a tenant's utilization within the window. */
    double GetUplinkUtilization(TenantKind::Tenant tenant) const;
    /** Mean over the switch downlinks of a tenant's utilization within the window. */
    double GetDownlinkUtilization(TenantKind::Tenant tenant) const;
    /** The packets the servers' uplinks sent within the window (a run's cost: a scaled
     * replica's fall with its scale). */
    uint64_t GetUplinkPackets(TenantKind::Tenant tenant) const;
    /** The servers' mean uplink utilization by the tenant in each whole bin of the window,
     * in time order (the samples behind an interval of GetUplinkUtilization). */
    std::vector<double> GetUplinkSeries(TenantKind::Tenant tenant) const;

    /** A tenant's utilization of one link within the window: server i's uplink, or its downlink. */
    double GetLinkUtilization(uint32_t server, bool uplink, TenantKind::Tenant tenant) const;

    /**
     * Also measures the devices of a tier of switch links (e.g. a fabric's "leaf_spine_up"),
     * each at its own rate; before the simulation runs.
     */
    void AddTier(const std::string& name, const std::vector<Ptr<NetDevice>>& devices);
    /** The tiers added, in order. */
    std::vector<std::string> GetTiers() const;
    /** Mean over a tier's links of a tenant's utilization within the window. */
    double GetTierUtilization(const std::string& name, TenantKind::Tenant tenant) const;

    /** Writes time_s,link,tenant,bytes,utilization (one row per non-empty bin). */
    void WriteCsv(const std::string& path) const;

    /** A distributed run: this process's bytes (its nodes' devices), as text for
     * MergeRankState in the other processes. */
    std::string GetRankState() const;
    /** Adds another process's GetRankState() to the bytes of each link, tenant and bin.
     * Throws DdnnError on a state of other links. */
    void MergeRankState(const std::string& state);

  private:
    static void Transmitted(UtilizationMeter* meter, uint32_t link, Ptr<const Packet> packet);
    /** The tenant of a packet on a point-to-point device, by its TCP or UDP ports. */
    TenantKind::Tenant TenantOf(Ptr<const Packet> packet);
    /** Reads the tenants' listening ports off the servers' applications. */
    void LearnPorts();
    /** Starts measuring `device` as link `name` (its rate read from its DataRate). */
    void Measure(Ptr<NetDevice> device, const std::string& name);
    /** Mean utilization of links [first, first + count) within the window. */
    double WindowUtilization(uint32_t first, uint32_t count, TenantKind::Tenant tenant) const;

    static constexpr size_t TENANTS = 3;
    Ptr<ServerTopology> m_network;
    uint32_t m_servers;
    std::vector<TenantKind::Tenant> m_tenantOfPort; //!< [port]; empty until the first packet
    std::vector<std::string> m_names; //!< per link: "server3-up", "leaf_spine_up-5", ...
    std::vector<double> m_bitRates;   //!< per link
    std::vector<std::pair<std::string, std::pair<uint32_t, uint32_t>>> m_tiers; //!< first, count
    Time m_interval;
    Time m_from;
    Time m_until;
    std::vector<std::array<std::vector<uint64_t>, TENANTS>> m_bins; // [link][tenant][bin]
    std::vector<std::array<uint64_t, TENANTS>> m_window;            // [link][tenant]: bytes
    std::vector<std::array<uint64_t, TENANTS>> m_windowPackets;     // [link][tenant]
};

} // namespace ns3

#endif /* UTILIZATION_METER_H */
