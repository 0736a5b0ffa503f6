/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_OUTLIER_ITERATIONS_H
#define DDNN_RUNNER_OUTLIER_ITERATIONS_H

#include "datacenter-run.h"

#include <string>
#include <vector>

namespace ns3
{

/** The sds from the others' mean beyond which an iteration is named. */
constexpr double kOutlierSds = 3;

/** An iteration far from the others, and what the network did while it ran. */
struct OutlierIteration
{
    size_t job{0};
    double startS{0};
    double periodS{0};
    double othersMeanS{0};                 //!< the mean of the job's other periods in the window
    double othersSdS{0};                   //!< their standard deviation
    std::vector<uint64_t> drops;           //!< per band, at servers and switches, in its period
    std::vector<uint64_t> retransmissions; //!< per band, TCP data segments the servers resent
    std::vector<uint64_t> timeouts;        //!< per band, the servers' TCP timeouts
};

/**
 * Each job's iterations whose period lies more than kOutlierSds standard deviations from the
 * mean of the job's other periods (leave one out: the outlier does not widen its own yardstick;
 * at least 3 others), with the drops and retransmissions within it.
 */
std::vector<OutlierIteration> OutlierIterations(const DatacenterResult& run);

/** One line naming an outlier: when, how long, how far, what happened. */
std::string DescribeOutlier(const OutlierIteration& outlier, bool severalJobs);

} // namespace ns3

#endif /* DDNN_RUNNER_OUTLIER_ITERATIONS_H */
