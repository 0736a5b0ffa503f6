/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-intervals.h"

#include "ns3/one-line-error.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_map>

namespace ns3
{

namespace
{

/** The bootstrap's seed: fixed, so a figure is the same at every run of the same results. */
constexpr uint64_t kBootstrapSeed = 1;

/** A core call's error as an exception (only a wrong argument or no memory can fail). */
void
Check(int rc)
{
    if (rc != DDNN_OK)
    {
        throw DdnnError(std::string("confidence interval: ") + ddnn_strerror(rc));
    }
}

} // namespace

std::string
ConfidenceText(double level)
{
    std::ostringstream os;
    os << level * 100 << " %";
    return os.str();
}

ddnn_interval
PeriodsInterval(const std::vector<double>& periods, double level)
{
    ddnn_interval out;
    Check(ddnn_batch_means(periods.data(), periods.size(), level, &out));
    return out;
}

ddnn_interval
IterationInterval(const TrainingSummary& training, double level)
{
    return PeriodsInterval(training.iterationPeriodsS, level);
}

double
IterationMedian(const TrainingSummary& training)
{
    return ddnn_median(training.iterationPeriodsS.data(), training.iterationPeriodsS.size());
}

ddnn_interval
FctInterval(const DatacenterResult& run, ddnn_flow_class flowClass, ddnn_statistic statistic)
{
    std::vector<double> fct;
    for (const auto& [id, flow] : run.measuredFlows)
    {
        if (flow.completed
            && (flowClass == DDNN_FLOWS_ALL || ddnn_flow_class_of(flow.bytes) == flowClass))
        {
            fct.push_back(flow.fct_s);
        }
    }
    ddnn_interval out;
    Check(ddnn_bootstrap(
        fct.data(), fct.size(), statistic, run.confidenceLevel, kBootstrapSeed, &out));
    return out;
}

ddnn_interval
IterationChange(const TrainingSummary& first, const TrainingSummary& second, double level)
{
    const ddnn_interval a = IterationInterval(first, level);
    const ddnn_interval b = IterationInterval(second, level);
    ddnn_interval out;
    Check(ddnn_change_of_means(&a, &b, level, &out));
    return out;
}

ddnn_interval
FctChange(const DatacenterResult& first,
          const DatacenterResult& second,
          ddnn_flow_class flowClass,
          ddnn_statistic statistic)
{
    std::unordered_map<uint64_t, double> firstFct;
    for (const auto& [id, flow] : first.measuredFlows)
    {
        if (flow.completed)
        {
            firstFct.emplace(id, flow.fct_s);
        }
    }
    std::vector<double> a;
    std::vector<double> b;
    for (const auto& [id, flow] : second.measuredFlows)
    {
        const auto found = firstFct.find(id);
        if (flow.completed && found != firstFct.end()
            && (flowClass == DDNN_FLOWS_ALL || ddnn_flow_class_of(flow.bytes) == flowClass))
        {
            a.push_back(found->second);
            b.push_back(flow.fct_s);
        }
    }
    ddnn_interval out;
    Check(ddnn_bootstrap_paired_change(
        a.data(), b.data(), a.size(), statistic, first.confidenceLevel, kBootstrapSeed, &out));
    return out;
}

const char*
SlowdownClass(double percent, double safe, double costly)
{
    return percent <= safe ? "SAFE" : percent <= costly ? "COSTLY" : "HARMFUL";
}

std::string
SlowdownVerdict(const ddnn_interval& change, double safe, double costly)
{
    if (std::isnan(change.low) || std::isnan(change.high))
    {
        return "NA";
    }
    const std::string low = SlowdownClass(change.low, safe, costly);
    return low == SlowdownClass(change.high, safe, costly) ? low : "INCONCLUSIVE";
}

std::string
ChangeWithInterval(const ddnn_interval& change)
{
    if (std::isnan(change.estimate))
    {
        return "NA";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << std::showpos << change.estimate << " %";
    if (!std::isnan(change.low))
    {
        os << " [" << change.low << ", " << change.high << "]";
    }
    return os.str();
}

} // namespace ns3
