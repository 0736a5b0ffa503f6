/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "utilization-meter.h"

#include "ns3/background-flow-sink.h"
#include "ns3/collective-rank.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include "atomic-file.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/simulator.h"

#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UtilizationMeter");

#ifdef NS3_LOG_ENABLE
namespace
{

void
LogWindowBoundary(const char* what)
{
    NS_LOG_INFO("the measurement window " << what);
}

} // namespace
#endif

UtilizationMeter::UtilizationMeter(Ptr<ServerTopology> network,
                                   Time interval,
                                   Time from,
                                   Time until)
    : m_network(network)
    , m_servers(network->GetServerCount())
    , m_interval(interval)
    , m_from(from)
    , m_until(until)
{
    if (!interval.IsStrictlyPositive())
    {
        throw DdnnError("UtilizationMeter: the interval must be positive");
    }
    // links 0..N-1: server uplinks; N..2N-1: their downlinks, the far ends of the channels
    std::vector<Ptr<NetDevice>> downlinks;
    for (uint32_t i = 0; i < m_servers; ++i)
    {
        Ptr<NetDevice> uplink = network->GetServerDevice(i);
        Ptr<Channel> channel = uplink ? uplink->GetChannel() : nullptr;
        if (!channel || channel->GetNDevices() != 2)
        {
            throw DdnnError("UtilizationMeter: server " + std::to_string(i)
                            + " is not on a point-to-point link");
        }
        downlinks.push_back(channel->GetDevice(channel->GetDevice(0) == uplink ? 1 : 0));
        Measure(uplink, "server" + std::to_string(i) + "-up");
    }
    for (uint32_t i = 0; i < m_servers; ++i)
    {
        Measure(downlinks[i], "server" + std::to_string(i) + "-down");
    }
    NS_LOG_FUNCTION(this << m_servers << interval << from << until);
#ifdef NS3_LOG_ENABLE
    // Where logging is compiled in only: the optimized build's events stay as they are.
    Simulator::Schedule(from - Simulator::Now(), &LogWindowBoundary, "starts (warm-up ends)");
    Simulator::Schedule(until - Simulator::Now(), &LogWindowBoundary, "ends (cool-down starts)");
#endif
}

void
UtilizationMeter::LearnPorts()
{
    m_tenantOfPort.assign(65536, TenantKind::NONE);
    for (uint32_t i = 0; i < m_servers; ++i)
    {
        Ptr<Node> server = m_network->GetServer(i);
        for (uint32_t a = 0; a < server->GetNApplications(); ++a)
        {
            Ptr<Application> app = server->GetApplication(a);
            if (Ptr<CollectiveRank> rank = DynamicCast<CollectiveRank>(app))
            {
                UintegerValue port;
                Ptr<PartitionTransport> transport = rank->GetTransport();
                TypeId::AttributeInformation info;
                if (transport
                    && transport->GetInstanceTypeId().LookupAttributeByName("Port", &info))
                {
                    transport->GetAttribute("Port", port);
                    m_tenantOfPort[port.Get()] = TenantKind::TRAINING;
                }
                // The network syncer's messages are the training's too.
                if (Ptr<TrainingJob> job = rank->GetJob();
                    job && job->GetSyncer() == TrainingJob::NETWORK)
                {
                    job->GetAttribute("SyncPort", port);
                    m_tenantOfPort[port.Get()] = TenantKind::TRAINING;
                }
            }
            else if (Ptr<BackgroundFlowSink> sink = DynamicCast<BackgroundFlowSink>(app))
            {
                m_tenantOfPort[sink->GetPort()] = TenantKind::BACKGROUND;
            }
        }
    }
}

TenantKind::Tenant
UtilizationMeter::TenantOf(Ptr<const Packet> packet)
{
    if (m_tenantOfPort.empty())
    {
        LearnPorts();
    }
    // A point-to-point frame: the PPP protocol (0x0021 for IPv4), the IPv4 header, then the
    // TCP or UDP ports.
    uint8_t head[2 + 60 + 4];
    const uint32_t size = packet->CopyData(head, sizeof head);
    if (size < 2 + 20 || head[0] != 0x00 || head[1] != 0x21)
    {
        return TenantKind::NONE;
    }
    const uint8_t* ip = head + 2;
    const uint32_t ipHeader = (ip[0] & 0x0f) * 4;
    if ((ip[9] != 6 && ip[9] != 17) || size < 2 + ipHeader + 4)
    {
        return TenantKind::NONE;
    }
    const uint8_t* ports = ip + ipHeader;
    const TenantKind::Tenant source = m_tenantOfPort[(ports[0] << 8) | ports[1]];
    return source != TenantKind::NONE ? source : m_tenantOfPort[(ports[2] << 8) | ports[3]];
}

void
UtilizationMeter::Measure(Ptr<NetDevice> device, const std::string& name)
{
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    const uint32_t link = m_names.size();
    m_names.push_back(name);
    m_bitRates.push_back(static_cast<double>(rate.Get().GetBitRate()));
    m_bins.emplace_back();
    m_window.push_back({});
    m_windowPackets.push_back({});
    device->TraceConnectWithoutContext(
        "PhyTxBegin", MakeBoundCallback(&UtilizationMeter::Transmitted, this, link));
}

void
UtilizationMeter::AddTier(const std::string& name, const std::vector<Ptr<NetDevice>>& devices)
{
    m_tiers.push_back(
        {name, {static_cast<uint32_t>(m_names.size()), static_cast<uint32_t>(devices.size())}});
    for (size_t k = 0; k < devices.size(); ++k)
    {
        Measure(devices[k], name + "-" + std::to_string(k));
    }
}

std::vector<std::string>
UtilizationMeter::GetTiers() const
{
    std::vector<std::string> names;
    for (const auto& tier : m_tiers)
    {
        names.push_back(tier.first);
    }
    return names;
}

double
UtilizationMeter::GetTierUtilization(const std::string& name, TenantKind::Tenant tenant) const
{
    for (const auto& tier : m_tiers)
    {
        if (tier.first == name)
        {
            return WindowUtilization(tier.second.first, tier.second.second, tenant);
        }
    }
    throw DdnnError("UtilizationMeter: no tier named '" + name + "'");
}

void
UtilizationMeter::Transmitted(UtilizationMeter* meter, uint32_t link, Ptr<const Packet> packet)
{
    const size_t tenant = meter->TenantOf(packet);
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
        ++meter->m_windowPackets[link][tenant];
    }
}

double
UtilizationMeter::WindowUtilization(uint32_t first, uint32_t count, TenantKind::Tenant tenant) const
{
    const double seconds = (m_until - m_from).GetSeconds();
    if (seconds <= 0 || count == 0)
    {
        return 0;
    }
    double sum = 0;
    for (uint32_t link = first; link < first + count; ++link)
    {
        sum += m_window[link][tenant] * 8 / (seconds * m_bitRates[link]);
    }
    return sum / count;
}

double
UtilizationMeter::GetLinkUtilization(uint32_t server, bool uplink, TenantKind::Tenant tenant) const
{
    return WindowUtilization(uplink ? server : m_servers + server, 1, tenant);
}

double
UtilizationMeter::GetUplinkUtilization(TenantKind::Tenant tenant) const
{
    return WindowUtilization(0, m_servers, tenant);
}

uint64_t
UtilizationMeter::GetUplinkPackets(TenantKind::Tenant tenant) const
{
    uint64_t packets = 0;
    for (uint32_t link = 0; link < m_servers; ++link)
    {
        packets += m_windowPackets[link][tenant];
    }
    return packets;
}

double
UtilizationMeter::GetDownlinkUtilization(TenantKind::Tenant tenant) const
{
    return WindowUtilization(m_servers, m_servers, tenant);
}

std::vector<double>
UtilizationMeter::GetUplinkSeries(TenantKind::Tenant tenant) const
{
    const int64_t width = m_interval.GetNanoSeconds();
    const auto first = static_cast<size_t>((m_from.GetNanoSeconds() + width - 1) / width);
    const auto end = static_cast<size_t>(m_until.GetNanoSeconds() / width);
    std::vector<double> series;
    for (size_t bin = first; bin < end && m_servers > 0; ++bin)
    {
        double sum = 0;
        for (uint32_t link = 0; link < m_servers; ++link)
        {
            const std::vector<uint64_t>& bins = m_bins[link][tenant];
            const uint64_t bytes = bin < bins.size() ? bins[bin] : 0;
            sum += bytes * 8 / (m_interval.GetSeconds() * m_bitRates[link]);
        }
        series.push_back(sum / m_servers);
    }
    return series;
}

void
UtilizationMeter::WriteCsv(const std::string& path) const
{
    static const char* names[TENANTS] = {"none", "training", "background"};
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
                out << b * m_interval.GetSeconds() << "," << m_names[link] << "," << names[t] << ","
                    << series[b] << ","
                    << series[b] * 8 / (m_interval.GetSeconds() * m_bitRates[link]) << "\n";
            }
        }
    }
    file.Commit();
}

std::string
UtilizationMeter::GetRankState() const
{
    std::ostringstream os;
    for (size_t link = 0; link < m_bins.size(); ++link)
    {
        for (size_t tenant = 0; tenant < TENANTS; ++tenant)
        {
            const std::vector<uint64_t>& bins = m_bins[link][tenant];
            if (m_window[link][tenant] == 0 && bins.empty())
            {
                continue;
            }
            os << link << " " << tenant << " " << m_window[link][tenant] << " "
               << m_windowPackets[link][tenant] << " " << bins.size();
            for (uint64_t bytes : bins)
            {
                os << " " << bytes;
            }
            os << "\n";
        }
    }
    return os.str();
}

void
UtilizationMeter::MergeRankState(const std::string& state)
{
    std::istringstream in(state);
    size_t link = 0;
    size_t tenant = 0;
    uint64_t window = 0;
    uint64_t packets = 0;
    size_t count = 0;
    while (in >> link >> tenant >> window >> packets >> count)
    {
        if (link >= m_bins.size() || tenant >= TENANTS || count > (1u << 30))
        {
            throw DdnnError("UtilizationMeter::MergeRankState: a state of other links");
        }
        m_window[link][tenant] += window;
        m_windowPackets[link][tenant] += packets;
        std::vector<uint64_t>& bins = m_bins[link][tenant];
        bins.resize(std::max(bins.size(), count), 0);
        for (size_t i = 0; i < count; ++i)
        {
            uint64_t bytes = 0;
            in >> bytes;
            bins[i] += bytes;
        }
    }
    if (!in.eof())
    {
        throw DdnnError("UtilizationMeter::MergeRankState: a truncated state");
    }
}

} // namespace ns3
