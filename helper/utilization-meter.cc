/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "utilization-meter.h"

#include "atomic-file.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ddnn-exception.h"
#include "ns3/simulator.h"

#include <fstream>
#include <iomanip>

namespace ns3
{

UtilizationMeter::UtilizationMeter(Ptr<ServerTopology> network,
                                   Time interval,
                                   Time from,
                                   Time until)
    : m_servers(network->GetServerCount())
    , m_bitRate(0)
    , m_interval(interval)
    , m_from(from)
    , m_until(until)
    , m_bins(2 * m_servers)
    , m_window(2 * m_servers)
{
    if (!interval.IsStrictlyPositive())
    {
        throw DdnnError("UtilizationMeter: the interval must be positive");
    }
    for (auto& totals : m_window)
    {
        totals.fill(0);
    }
    // links 0..N-1: server uplinks; N..2N-1: their downlinks, the far ends of the channels
    for (uint32_t i = 0; i < m_servers; ++i)
    {
        Ptr<NetDevice> uplink = network->GetServerDevice(i);
        Ptr<Channel> channel = uplink ? uplink->GetChannel() : nullptr;
        if (!channel || channel->GetNDevices() != 2)
        {
            throw DdnnError("UtilizationMeter: server " + std::to_string(i)
                            + " is not on a point-to-point link");
        }
        Ptr<NetDevice> downlink = channel->GetDevice(channel->GetDevice(0) == uplink ? 1 : 0);
        DataRateValue rate;
        uplink->GetAttribute("DataRate", rate);
        m_bitRate = rate.Get().GetBitRate(); // the servers' links share one rate
        uplink->TraceConnectWithoutContext(
            "PhyTxBegin", MakeBoundCallback(&UtilizationMeter::Transmitted, this, i));
        downlink->TraceConnectWithoutContext(
            "PhyTxBegin", MakeBoundCallback(&UtilizationMeter::Transmitted, this, m_servers + i));
    }
}

void
UtilizationMeter::Transmitted(UtilizationMeter* meter, uint32_t link, Ptr<const Packet> packet)
{
    TenantTag tag;
    size_t tenant = packet->FindFirstMatchingByteTag(tag) ? tag.GetTenant() : TenantTag::NONE;
    Time now = Simulator::Now();
    size_t bin = static_cast<size_t>(now.GetNanoSeconds() / meter->m_interval.GetNanoSeconds());
    std::vector<uint64_t>& bins = meter->m_bins[link][tenant];
    if (bins.size() <= bin)
    {
        bins.resize(bin + 1, 0);
    }
    bins[bin] += packet->GetSize();
    if (now >= meter->m_from && now < meter->m_until)
    {
        meter->m_window[link][tenant] += packet->GetSize();
    }
}

double
UtilizationMeter::WindowUtilization(uint32_t firstLink, TenantTag::Tenant tenant) const
{
    double seconds = (m_until - m_from).GetSeconds();
    if (seconds <= 0)
    {
        return 0;
    }
    double bytes = 0;
    for (uint32_t i = 0; i < m_servers; ++i)
    {
        bytes += m_window[firstLink + i][tenant];
    }
    return bytes * 8 / (seconds * m_bitRate) / m_servers;
}

double
UtilizationMeter::GetLinkUtilization(uint32_t server, bool uplink, TenantTag::Tenant tenant) const
{
    double seconds = (m_until - m_from).GetSeconds();
    uint32_t link = uplink ? server : m_servers + server;
    return seconds > 0 ? m_window.at(link)[tenant] * 8 / (seconds * m_bitRate) : 0;
}

double
UtilizationMeter::GetUplinkUtilization(TenantTag::Tenant tenant) const
{
    return WindowUtilization(0, tenant);
}

double
UtilizationMeter::GetDownlinkUtilization(TenantTag::Tenant tenant) const
{
    return WindowUtilization(m_servers, tenant);
}

void
UtilizationMeter::WriteCsv(const std::string& path) const
{
    static const char* names[TENANTS] = {"none", "training", "background"};
    const double binBits = m_interval.GetSeconds() * m_bitRate;
    AtomicFile file(path);
    std::ofstream& out = file.Out();
    out << "time_s,link,tenant,bytes,utilization\n";
    size_t bins = 0;
    for (const auto& link : m_bins)
    {
        for (const auto& tenant : link)
        {
            bins = std::max(bins, tenant.size());
        }
    }
    for (size_t b = 0; b < bins; ++b)
    {
        for (uint32_t link = 0; link < m_bins.size(); ++link)
        {
            for (size_t t = 0; t < TENANTS; ++t)
            {
                const auto& series = m_bins[link][t];
                if (b >= series.size() || series[b] == 0)
                {
                    continue;
                }
                out << b * m_interval.GetSeconds() << ",server" << (link % m_servers)
                    << (link < m_servers ? "-up" : "-down") << "," << names[t] << "," << series[b]
                    << "," << series[b] * 8 / binBits << "\n";
            }
        }
    }
    file.Commit();
}

} // namespace ns3
