/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_RUN_INTERVALS_H
#define DDNN_RUNNER_RUN_INTERVALS_H

#include "datacenter-run.h"

#include "ns3/ddnn-interval.h"
#include "ns3/ddnn-precision.h"

#include <string>

namespace ns3
{

/** A level as people read it: "95 %". */
std::string ConfidenceText(double level);

/**
 * A job's mean iteration period and its interval at `level` (batch means over the window's
 * periods).
 */
ddnn_interval IterationInterval(const TrainingSummary& training, double level);

/** The mean of periods in their order (iterations on either clock) with its interval at
 * `level`: batch means, as IterationInterval. */
ddnn_interval PeriodsInterval(const std::vector<double>& periods, double level);

/** The median of the window's iteration periods; NaN without any. */
double IterationMedian(const TrainingSummary& training);

/** A flow class's mean or p99 FCT over the completed flows of a run (bootstrap over flows),
 * at the run's level. */
ddnn_interval FctInterval(const DatacenterResult& run,
                          ddnn_flow_class flowClass,
                          ddnn_statistic statistic);

/** The change of a job's mean iteration period from one run to another, in percent. */
ddnn_interval IterationChange(const TrainingSummary& first,
                              const TrainingSummary& second,
                              double level);

/**
 * The change of a flow class's mean or p99 FCT from one run to another, in percent, over the
 * flows (the same ids) completed in both: a paired bootstrap at the first run's level.
 */
ddnn_interval FctChange(const DatacenterResult& first,
                        const DatacenterResult& second,
                        ddnn_flow_class flowClass,
                        ddnn_statistic statistic);

/** The thesis's thresholds of the iteration slowdown (ddnn-campaign's green and red). */
constexpr double kSafeSlowdownPercent = 1;
constexpr double kCostlySlowdownPercent = 30;

/** The class of an iteration slowdown: SAFE up to `safe` %, COSTLY up to `costly` %, HARMFUL. */
const char* SlowdownClass(double percent,
                          double safe = kSafeSlowdownPercent,
                          double costly = kCostlySlowdownPercent);

/**
 * The verdict on a slowdown: its class where its whole interval lies in one class,
 * INCONCLUSIVE where the interval spans two, NA without an interval.
 */
std::string SlowdownVerdict(const ddnn_interval& change,
                            double safe = kSafeSlowdownPercent,
                            double costly = kCostlySlowdownPercent);

/** "+74.0 % [+12.0, +215.0]": a change with its interval (or without, where it has none). */
std::string ChangeWithInterval(const ddnn_interval& change);

} // namespace ns3

#endif /* DDNN_RUNNER_RUN_INTERVALS_H */
