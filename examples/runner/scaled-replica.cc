/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scaled-replica.h"

#include "scenario.h"

#include "ns3/one-line-error.h"

#include <cmath>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{
/** The smallest scale whose replicas kept every validated cell's answer (doc/validation.rst,
 * "Scaled replicas"). */
constexpr double kSmallestValidatedScale = 0.5;
} // namespace

DataRate
ScaledRate(const Scenario& scenario, const DataRate& rate)
{
    const double bps = std::round(static_cast<double>(rate.GetBitRate()) * scenario.values.scale);
    return DataRate(static_cast<uint64_t>(std::max(1.0, bps)));
}

uint32_t
ScaledPackets(const Scenario& scenario, uint32_t packets)
{
    // Rounded up: a replica's queue never holds less than its share (and 1 stays 1).
    return static_cast<uint32_t>(std::ceil(packets * scenario.values.scale - 1e-9));
}

double
ScaledFlowRate(const Scenario& scenario)
{
    return scenario.values.flow_rate * scenario.values.scale;
}

void
CheckScalable(const Scenario& scenario)
{
    const ddnn_scenario& x = scenario.values;
    if (x.scale < 1 && !Is(x.background_pattern, "web-search"))
    {
        std::ostringstream os;
        os << "--scale=" << x.scale << ": a replica scales the web-search pattern's flow rate; "
           << "--backgroundPattern=" << x.background_pattern
           << " has no rate to scale: expected --scale=1 or --backgroundPattern=web-search";
        throw DdnnError(os.str());
    }
}

std::string
ScaleNote(const Scenario& scenario)
{
    const ddnn_scenario& x = scenario.values;
    if (x.scale == 1)
    {
        return "";
    }
    // What the validation ran (the thesis grid's cell shape): anything else is named.
    std::vector<std::string> outside;
    if (x.scale < kSmallestValidatedScale)
    {
        std::ostringstream os;
        os << "a scale below " << kSmallestValidatedScale;
        outside.push_back(os.str());
    }
    if (!Is(x.topology_kind, "single-tor"))
    {
        outside.push_back(std::string("--topology=") + x.topology_kind);
    }
    if (!Is(x.queue_disc, "pfifo-fast"))
    {
        outside.push_back(std::string("--queueDisc=") + x.queue_disc);
    }
    if (x.loss_rate > 0 || x.added_delay_us > 0 || x.rate_cap[0] != '\0')
    {
        outside.push_back("impaired links");
    }
    if (scenario.JobCount() > 1)
    {
        outside.push_back("several training jobs");
    }
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        const ddnn_scenario_job& job = scenario.Job(k);
        if (!Is(job.collective, "ring-allreduce") || !Is(job.transport, "tcp"))
        {
            outside.push_back(JobArgument(k, "collective") + "=" + job.collective + " over "
                              + job.transport);
        }
    }
    std::ostringstream os;
    os << "scaled replica: link rates, queue limits, training bytes and background flow rate x "
       << x.scale << " (figures are the replica's; doc/user.rst, \"Scaled replicas\")";
    if (!outside.empty())
    {
        os << "; outside what the validation ran:";
        for (size_t i = 0; i < outside.size(); ++i)
        {
            os << (i > 0 ? ", " : " ") << outside[i];
        }
    }
    return os.str();
}

} // namespace ns3
