/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "outlier-iterations.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/** How many of the ordered times lie in [from, until). */
uint64_t
CountIn(const std::vector<int64_t>& times, int64_t from, int64_t until)
{
    return std::lower_bound(times.begin(), times.end(), until)
           - std::lower_bound(times.begin(), times.end(), from);
}

} // namespace

std::vector<OutlierIteration>
OutlierIterations(const DatacenterResult& run)
{
    std::vector<OutlierIteration> out;
    for (size_t k = 0; k < run.jobs.size(); ++k)
    {
        const std::vector<double>& periods = run.jobs[k].training.iterationPeriodsS;
        const std::vector<double>& starts = run.jobs[k].training.iterationStartsS;
        const size_t n = periods.size();
        if (n < 4 || starts.size() != n)
        {
            continue; // fewer than 3 others: no yardstick
        }
        double sum = 0;
        double squares = 0;
        for (double p : periods)
        {
            sum += p;
            squares += p * p;
        }
        for (size_t i = 0; i < n; ++i)
        {
            const double others = static_cast<double>(n - 1);
            const double mean = (sum - periods[i]) / others;
            const double variance = std::max(
                0.0, (squares - periods[i] * periods[i] - others * mean * mean) / (others - 1));
            const double sd = std::sqrt(variance);
            if (!(std::fabs(periods[i] - mean) > kOutlierSds * sd) || sd == 0)
            {
                continue;
            }
            OutlierIteration o{k, starts[i], periods[i], mean, sd, {}, {}, {}};
            const auto from = static_cast<int64_t>(std::llround(starts[i] * 1e9));
            const auto until = static_cast<int64_t>(std::llround((starts[i] + periods[i]) * 1e9));
            for (size_t b = 0; b < run.retransmissionTimesNs.size(); ++b)
            {
                o.retransmissions.push_back(CountIn(run.retransmissionTimesNs[b], from, until));
            }
            for (size_t b = 0; b < run.timeoutTimesNs.size(); ++b)
            {
                o.timeouts.push_back(CountIn(run.timeoutTimesNs[b], from, until));
            }
            for (const auto* bands : {&run.serverBands, &run.switchBands})
            {
                o.drops.resize(std::max(o.drops.size(), bands->dropTimesNs.size()), 0);
                for (size_t b = 0; b < bands->dropTimesNs.size(); ++b)
                {
                    o.drops[b] += CountIn(bands->dropTimesNs[b], from, until);
                }
            }
            out.push_back(o);
        }
    }
    return out;
}

std::string
DescribeOutlier(const OutlierIteration& o, bool severalJobs)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1)
       << (severalJobs ? "job " + std::to_string(o.job + 1) + " " : "") << "iteration from "
       << std::setprecision(3) << o.startS << " s: " << std::setprecision(1) << o.periodS * 1e3
       << " ms, " << std::fabs(o.periodS - o.othersMeanS) / o.othersSdS << " sd "
       << (o.periodS > o.othersMeanS ? "above" : "below") << " the others' mean "
       << o.othersMeanS * 1e3 << " ms; in it:";
    for (const auto& [what, counts] : {std::pair{" packets dropped", &o.drops},
                                       std::pair{" TCP data segments resent", &o.retransmissions},
                                       std::pair{" retransmission timeouts", &o.timeouts}})
    {
        uint64_t total = 0;
        std::ostringstream byBand;
        for (size_t b = 0; b < counts->size(); ++b)
        {
            total += (*counts)[b];
            if ((*counts)[b] > 0)
            {
                byBand << (byBand.tellp() > 0 ? ", " : "") << "band " << b << ": " << (*counts)[b];
            }
        }
        os << (counts == &o.drops ? " " : ", ") << total << what
           << (byBand.tellp() > 0 ? " (" + byBand.str() + ")" : "");
    }
    return os.str();
}

} // namespace ns3
