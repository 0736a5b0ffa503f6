/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The training job and background web-search flows together on a single-ToR
 * network: does de-prioritizing training make the other tenant's flows finish
 * sooner, and what does it cost training?
 *
 * Writes summary.csv, flows.csv, utilization.csv and the training CSVs into
 * --outDir. With --compare, runs the same flows with training at the same and
 * at low priority (into outDir/same and outDir/low) and writes compare.csv; the same-priority
 * run has every buffer at that priority (the static policy), the low one the job's policy.
 *
 *   ./ddnn-datacenter --scenario=scenarios/quick-compare.xml --compare
 *   ./ddnn-datacenter --scenario=data/scenarios/thesis-defaults.xml --durationS=1
 *
 * Every run writes its resolved scenario to outDir/scenario.xml: reading it
 * back (--scenario=outDir/scenario.xml) reproduces the run.
 */

#include "runner/runner.h"

#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <sys/resource.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/** Seconds as milliseconds with 3 decimals, or NA for a figure without samples. */
std::string
Ms(double seconds)
{
    if (std::isnan(seconds))
    {
        return "NA";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << seconds * 1e3;
    return os.str();
}

/** A count of a queue meter's side, or NA where its discs have no priority map. */
std::string
Count(const DatacenterResult::Bands& bands, const std::vector<uint64_t>& counts, size_t band)
{
    return bands.classified && band < counts.size() ? std::to_string(counts[band]) : "NA";
}

/**
 * One line per band whose servers sent more data segments again than the network dropped in
 * it: the rest resent what was not lost (spurious), with the band's retransmission timeouts
 * (a timer can expire while its segment waits in a queue; without a timeout, the resends came
 * from the loss recovery itself). Where the links lose packets too, which no band counts,
 * one line says that nothing can be inferred.
 */
std::vector<std::string>
SpuriousRetransmissions(const DatacenterResult& r)
{
    std::vector<std::string> lines;
    if (!r.serverBands.classified || !r.switchBands.classified)
    {
        return lines; // drops of a band unknown: nothing to say for sure
    }
    for (size_t b = 0; b < r.retransmissions.size(); ++b)
    {
        const uint64_t drops = r.serverBands.drops[b]
                               + (b < r.switchBands.drops.size() ? r.switchBands.drops[b] : 0);
        if (r.retransmissions[b] > drops && r.linkLosses)
        {
            return {"segments sent again beyond the queues' drops are not called spurious: the "
                    "links lose packets too (loss-rate), and no band counts those"};
        }
        if (r.retransmissions[b] > drops)
        {
            std::ostringstream os;
            const std::string& tenants = b < r.bandTenants.size() ? r.bandTenants[b] : "";
            const size_t timeouts = r.timeoutTimesNs[b].size();
            os << "band " << b << (tenants.empty() ? "" : " (" + tenants + ")") << ": "
               << r.retransmissions[b] << " TCP data segments sent again, " << drops
               << " packets dropped: at least " << r.retransmissions[b] - drops
               << " of the resent segments had not been dropped (spurious retransmissions); "
               << timeouts << " retransmission timeouts fired"
               << (timeouts > 0 ? " (minimum RTO " + FormatFigure(r.minRtoMs, 4)
                                      + " ms: a timer can expire while its segment waits in a "
                                        "queue)"
                                : "");
            lines.push_back(os.str());
        }
    }
    return lines;
}

void
PrintRun(const std::string& label, const DatacenterResult& r)
{
    std::cout << std::fixed << std::setprecision(3) << "[" << label << "]\n";
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const TrainingSummary& t = r.jobs[k].training;
        const ddnn_interval period = IterationInterval(t, r.confidenceLevel);
        std::cout << "  training" << (r.jobs.size() > 1 ? " job " + std::to_string(k + 1) : "")
                  << ": " << t.iterationsCompleted << " iterations, mean "
                  << Ms(t.iterationTimeMeanS) << " ms [" << Ms(period.low) << ", "
                  << Ms(period.high) << "] (" << ConfidenceText(r.confidenceLevel)
                  << " interval, batch means; n=" << t.iterationsMeasured << " in the window, sd "
                  << Ms(t.iterationTimeSdS) << " ms, median " << Ms(IterationMedian(t))
                  << " ms; compute " << Ms(t.computeTimeS) << " ms)\n";
    }
    double expected = 0, measured = 0; // the training tenant: every job
    for (const JobResult& job : r.jobs)
    {
        expected += job.utilTrainingExpected * job.training.workers;
        measured += job.utilTrainingMeasured * job.training.workers;
    }
    const double servers = static_cast<double>(r.linkUtilization.size());
    expected /= servers;
    measured /= servers;
    std::cout << "  link utilization (%, wire bytes) training  background   total\n"
              << "    expected, eq. 5.2-5.4           " << std::setw(8) << expected * 100
              << std::setw(12) << r.utilBackgroundExpected * 100 << std::setw(8)
              << (expected + r.utilBackgroundExpected) * 100 << "\n"
              << "    measured, mean of uplinks       " << std::setw(8) << measured * 100
              << std::setw(12) << r.utilBackgroundMeasured * 100 << std::setw(8)
              << (measured + r.utilBackgroundMeasured) * 100 << "\n";
    for (uint32_t i = 0; i < r.linkUtilization.size(); ++i)
    {
        const auto& u = r.linkUtilization[i];
        for (int down = 0; down < 2; ++down)
        {
            std::ostringstream link;
            link << "server" << i << (down ? " downlink" : " uplink");
            std::cout << "    " << std::left << std::setw(32) << link.str() << std::right
                      << std::setw(8) << u[2 * down] * 100 << std::setw(12) << u[2 * down + 1] * 100
                      << std::setw(8) << (u[2 * down] + u[2 * down + 1]) * 100 << "\n";
        }
    }
    std::cout << "  flows   started  completed   mean FCT  (" << ConfidenceText(r.confidenceLevel)
              << " interval, bootstrap)    p50 FCT    p99 FCT  (ms)\n";
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        const ddnn_flow_class_stats& s = r.fct[c];
        const ddnn_interval mean
            = FctInterval(r, static_cast<ddnn_flow_class>(c), DDNN_STATISTIC_MEAN);
        std::cout << "  " << std::left << std::setw(6)
                  << ddnn_flow_class_name(static_cast<ddnn_flow_class>(c)) << std::right
                  << std::setw(9) << s.started << std::setw(11) << s.completed << std::setw(11)
                  << Ms(s.mean_s) << std::setw(34)
                  << "[" + Ms(mean.low) + ", " + Ms(mean.high) + "]" << std::setw(11) << Ms(s.p50_s)
                  << std::setw(11) << Ms(s.p99_s) << "\n";
    }
    std::cout << "  band  drops at servers  at switches  retransmissions  timeouts  tenants\n";
    for (size_t b = 0; b < r.serverBands.drops.size(); ++b)
    {
        const bool known = b < r.timeoutTimesNs.size() && r.serverBands.classified;
        std::cout << "  " << std::setw(4) << b << std::setw(18)
                  << Count(r.serverBands, r.serverBands.drops, b) << std::setw(13)
                  << Count(r.switchBands, r.switchBands.drops, b) << std::setw(17)
                  << Count(r.serverBands, r.retransmissions, b) << std::setw(10)
                  << (known ? std::to_string(r.timeoutTimesNs[b].size()) : "NA") << "  "
                  << (b < r.bandTenants.size() ? r.bandTenants[b] : "") << "\n";
    }
    for (const std::string& line : SpuriousRetransmissions(r))
    {
        std::cout << "  " << line << "\n";
    }
    for (const OutlierIteration& outlier : OutlierIterations(r))
    {
        std::cout << "  " << DescribeOutlier(outlier, r.jobs.size() > 1) << "\n";
    }
}

const double kNa = std::numeric_limits<double>::quiet_NaN();

/**
 * A figure's interval from the series of samples behind it, by batch means (allreduce times
 * in the order recorded, utilization bins in time order: both autocorrelated), centred on
 * `value` where the figure is not the series' own mean (a window's utilization, whose
 * partial bins the series leaves out).
 */
ddnn_interval
SeriesInterval(double value, const std::vector<double>& series, double level)
{
    ddnn_interval i{};
    if (ddnn_batch_means(series.data(), series.size(), level, &i) != DDNN_OK)
    {
        throw DdnnError("confidence interval: a series that cannot be judged");
    }
    const double shift = value - i.estimate;
    i.estimate = value;
    i.low += shift;
    i.high += shift;
    return i;
}

/** The change from same to low of two SeriesIntervals, in percent (delta method). */
ddnn_interval
SeriesChange(const ddnn_interval& same, const ddnn_interval& low, double level)
{
    ddnn_interval change{};
    if (ddnn_change_of_means(&same, &low, level, &change) != DDNN_OK)
    {
        throw DdnnError("confidence interval: a change that cannot be judged");
    }
    return change;
}

/** One figure at both priorities, with its evidence: a row of compare.csv. */
struct Compared
{
    std::string key;
    std::string label; //!< on screen; "" for a row of compare.csv only
    double scale;      //!< from the figure's unit to the screen's
    ddnn_interval same;
    ddnn_interval low;
    double sameSd;
    double lowSd;
    double sameMedian;
    double lowMedian;
    ddnn_interval change; //!< from same to low, in percent, with its interval where it has one
    uint64_t minimum;     //!< fewer samples on either side: flagged; 0: never
};

/** The rows of compare.csv: training figures, FCT by class, uplink utilization. */
std::vector<Compared>
CompareRows(const DatacenterResult& same, const DatacenterResult& low)
{
    std::vector<Compared> rows;
    for (size_t k = 0; k < same.jobs.size(); ++k)
    {
        const TrainingSummary& a = same.jobs[k].training;
        const TrainingSummary& b = low.jobs[k].training;
        const std::string job = same.jobs.size() > 1 ? " (job " + std::to_string(k + 1) + ")" : "";
        // An iteration row on either clock: iteration starts (the summary's) or the thesis
        // code's (doc/validation.rst, "The thesis's own code, side by side").
        auto periods = [&](const std::string& key,
                           const std::string& label,
                           const std::vector<double>& samePeriods,
                           const std::vector<double>& lowPeriods,
                           double sameSd,
                           double lowSd) {
            const ddnn_interval sameMean = PeriodsInterval(samePeriods, same.confidenceLevel);
            const ddnn_interval lowMean = PeriodsInterval(lowPeriods, same.confidenceLevel);
            rows.push_back({JobPrefix(k, "_") + key,
                            label + job,
                            1e3,
                            sameMean,
                            lowMean,
                            sameSd,
                            lowSd,
                            ddnn_median(samePeriods.data(), samePeriods.size()),
                            ddnn_median(lowPeriods.data(), lowPeriods.size()),
                            SeriesChange(sameMean, lowMean, same.confidenceLevel),
                            std::max<uint64_t>(same.minIterations, 1)});
        };
        periods("iteration_time_mean_s",
                "iteration time (ms)",
                a.iterationPeriodsS,
                b.iterationPeriodsS,
                a.iterationTimeSdS,
                b.iterationTimeSdS);
        periods("iteration_backward_clock_mean_s",
                "iteration (thesis clock, ms)",
                a.backwardPeriodsS,
                b.backwardPeriodsS,
                a.backwardPeriodSdS,
                b.backwardPeriodSdS);
        const ddnn_interval sameAllreduce
            = SeriesInterval(a.allreduceTimeMeanS, a.allreduceTimesS, same.confidenceLevel);
        const ddnn_interval lowAllreduce
            = SeriesInterval(b.allreduceTimeMeanS, b.allreduceTimesS, same.confidenceLevel);
        rows.push_back({JobPrefix(k, "_") + "allreduce_time_mean_s",
                        "allreduce time (ms)" + job,
                        1e3,
                        sameAllreduce,
                        lowAllreduce,
                        a.allreduceTimeSdS,
                        b.allreduceTimeSdS,
                        ddnn_median(a.allreduceTimesS.data(), a.allreduceTimesS.size()),
                        ddnn_median(b.allreduceTimesS.data(), b.allreduceTimesS.size()),
                        SeriesChange(sameAllreduce, lowAllreduce, same.confidenceLevel),
                        1});
    }
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        const auto flowClass = static_cast<ddnn_flow_class>(c);
        const std::string name = ddnn_flow_class_name(flowClass);
        const ddnn_flow_class_stats& a = same.fct[c];
        const ddnn_flow_class_stats& b = low.fct[c];
        const bool shown = c == DDNN_FLOWS_SMALL || c == DDNN_FLOWS_LARGE;
        rows.push_back({"fct_" + name + "_mean_s",
                        shown ? name + " flows: mean FCT (ms)" : "",
                        1e3,
                        FctInterval(same, flowClass, DDNN_STATISTIC_MEAN),
                        FctInterval(low, flowClass, DDNN_STATISTIC_MEAN),
                        a.sd_s,
                        b.sd_s,
                        a.p50_s,
                        b.p50_s,
                        FctChange(same, low, flowClass, DDNN_STATISTIC_MEAN),
                        same.minFlows});
        rows.push_back({"fct_" + name + "_p99_s",
                        shown ? name + " flows: p99 FCT (ms)" : "",
                        1e3,
                        FctInterval(same, flowClass, DDNN_STATISTIC_P99),
                        FctInterval(low, flowClass, DDNN_STATISTIC_P99),
                        kNa,
                        kNa,
                        kNa,
                        kNa,
                        FctChange(same, low, flowClass, DDNN_STATISTIC_P99),
                        same.minFlows});
    }
    // Utilization: the mean over the window, its interval from the window's whole bins.
    double sameTraining = 0;
    double lowTraining = 0;
    for (size_t k = 0; k < same.jobs.size(); ++k)
    {
        sameTraining += same.jobs[k].utilTrainingMeasured * same.jobs[k].training.workers;
        lowTraining += low.jobs[k].utilTrainingMeasured * low.jobs[k].training.workers;
    }
    const double servers = static_cast<double>(same.linkUtilization.size());
    for (const auto& [key, label, a, b, aSeries, bSeries] :
         {std::tuple{"util_training_measured",
                     "training's uplink use (%)",
                     sameTraining / servers,
                     lowTraining / servers,
                     &same.uplinkTrainingSeries,
                     &low.uplinkTrainingSeries},
          std::tuple{"util_background_measured",
                     "background's uplink use (%)",
                     same.utilBackgroundMeasured,
                     low.utilBackgroundMeasured,
                     &same.uplinkBackgroundSeries,
                     &low.uplinkBackgroundSeries}})
    {
        const ddnn_interval sameUse = SeriesInterval(a, *aSeries, same.confidenceLevel);
        const ddnn_interval lowUse = SeriesInterval(b, *bSeries, same.confidenceLevel);
        rows.push_back({key,
                        label,
                        100,
                        sameUse,
                        lowUse,
                        kNa,
                        kNa,
                        kNa,
                        kNa,
                        SeriesChange(sameUse, lowUse, same.confidenceLevel),
                        0});
    }
    return rows;
}

bool
FewSamples(const Compared& row)
{
    return row.minimum > 0 && (row.same.samples < row.minimum || row.low.samples < row.minimum);
}

/** A figure for people: fewer decimals as it grows, NA without a sample. */
std::string
Figure(double value)
{
    if (std::isnan(value))
    {
        return "NA";
    }
    std::ostringstream os;
    os << std::fixed
       << std::setprecision(std::fabs(value) >= 100 ? 1
                            : std::fabs(value) >= 1 ? 2
                                                    : 3)
       << value;
    return os.str();
}

/**
 * "123.4 [110.2, 140.1] n=40 sd 12.3": a figure on screen with its interval, samples and
 * spread, and its median where the spread exceeds half the mean.
 */
std::string
WithEvidence(const ddnn_interval& value, double sd, double median, double scale)
{
    std::ostringstream os;
    os << Figure(value.estimate * scale);
    if (!std::isnan(value.low))
    {
        os << " [" << Figure(value.low * scale) << ", " << Figure(value.high * scale) << "]";
    }
    os << " n=" << value.samples;
    if (!std::isnan(sd))
    {
        os << " sd " << Figure(sd * scale);
        if (!std::isnan(median) && sd > value.estimate / 2)
        {
            os << " median " << Figure(median * scale);
        }
    }
    return os.str();
}

/** The row of compare.csv named KEY: rows differ in number per job, so never by position. */
const Compared&
RowNamed(const std::vector<Compared>& rows, const std::string& key)
{
    for (const Compared& row : rows)
    {
        if (row.key == key)
        {
            return row;
        }
    }
    NS_FATAL_ERROR("compare.csv has no row " << key);
}

/**
 * The verdict on the iteration slowdown, only where its whole interval lies in one class (at
 * most 1 % safe, up to 30 % costly, more harmful); otherwise INCONCLUSIVE with the run length
 * that would settle it, from the observed spread.
 */
std::string
Verdict(const Scenario& scenario, const Compared& iteration, const Compared& smallFlows)
{
    const ddnn_interval& change = iteration.change;
    std::ostringstream os;
    os << std::fixed << std::setprecision(1);
    if (std::isnan(change.estimate) || std::isnan(change.low) || FewSamples(iteration))
    {
        os << "no verdict: fewer than " << std::max<uint64_t>(iteration.minimum, 2)
           << " iterations measured at one priority (n=" << iteration.same.samples << " and "
           << iteration.low.samples << "); give a longer --durationS";
        return os.str();
    }
    const std::string lowClass = SlowdownClass(change.low);
    const std::string highClass = SlowdownClass(change.high);
    os << SlowdownVerdict(change) << ": training at low priority changes its iteration time by "
       << ChangeWithInterval(change) << " (" << ConfidenceText(scenario.values.confidence)
       << " interval; SAFE: at most +" << kSafeSlowdownPercent << " %, COSTLY: up to +"
       << kCostlySlowdownPercent << " %, HARMFUL: more)";
    if (lowClass != highClass)
    {
        // Settled when the half-width shrinks below the distance to the nearest threshold
        // inside the interval; the half-width falls as one over the root of the iterations.
        double distance = std::numeric_limits<double>::infinity();
        for (double threshold : {kSafeSlowdownPercent, kCostlySlowdownPercent})
        {
            if (change.low <= threshold && threshold < change.high)
            {
                distance = std::min(distance, std::fabs(change.estimate - threshold));
            }
        }
        const double factor = ddnn_samples_factor(&change, distance);
        os << "; the interval spans " << lowClass << " and " << highClass;
        if (std::isfinite(factor))
        {
            const double window = scenario.values.duration_s - scenario.values.warmup_s
                                  - scenario.values.cooldown_s;
            os << ": about " << std::setprecision(0) << std::ceil(factor)
               << " times the iterations would settle it (--durationS=" << std::setprecision(1)
               << scenario.values.warmup_s + window * std::ceil(factor) + scenario.values.cooldown_s
               << ", from the spread measured here)";
        }
        else
        {
            os << ": the change sits on a threshold, no run length settles it";
        }
    }
    if (!std::isnan(smallFlows.change.estimate))
    {
        os << "; small flows' mean FCT changes by " << ChangeWithInterval(smallFlows.change)
           << " over the " << smallFlows.change.samples << " flows completed in both runs"
           << (FewSamples(smallFlows) ? " (few flows)" : "");
    }
    return os.str();
}

/** The answer of a comparison on one screen, and compare.csv. */
void
WriteComparison(const Scenario& scenario, const DatacenterResult& same, const DatacenterResult& low)
{
    const std::vector<Compared> rows = CompareRows(same, low);
    AtomicFile compare(scenario.outDir + "/compare.csv");
    std::ofstream& csv = compare.Out();
    csv << "key,same,same_ci_low,same_ci_high,low,low_ci_low,low_ci_high,change_percent,"
           "change_ci_low_percent,change_ci_high_percent,change_samples,same_samples,low_samples,"
           "same_sd,low_sd,same_median,low_median,few_samples,confidence_level\n";
    for (const Compared& row : rows)
    {
        csv << row.key;
        for (const ddnn_interval* v : {&row.same, &row.low, &row.change})
        {
            csv << "," << FormatFigure(v->estimate) << "," << FormatFigure(v->low) << ","
                << FormatFigure(v->high);
        }
        csv << "," << row.change.samples << "," << row.same.samples << "," << row.low.samples << ","
            << FormatFigure(row.sameSd) << "," << FormatFigure(row.lowSd) << ","
            << FormatFigure(row.sameMedian) << "," << FormatFigure(row.lowMedian) << ","
            << (FewSamples(row) ? "true" : "false") << "," << FormatFigure(same.confidenceLevel)
            << "\n";
    }
    compare.Commit();

    std::cout << "Training at same vs low priority, the same background flows, window ["
              << scenario.values.warmup_s << ", "
              << scenario.values.duration_s - scenario.values.cooldown_s
              << ") s; [ ]: " << ConfidenceText(same.confidenceLevel)
              << " interval (iterations: batch means; flows: bootstrap, a change over the "
                 "flows completed in both runs), n: samples, sd: their spread\n";
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        // A policy decides per buffer at low priority; the same-priority run is the reference.
        if (!Is(scenario.Job(k).priority_policy, "static"))
        {
            std::cout << "job " << k + 1 << ": same (every buffer at the background's priority, "
                      << "policy static) vs " << scenario.Job(k).priority_policy
                      << " (low priority under that policy)\n";
        }
    }
    std::cout << std::left << std::setw(30) << "" << std::setw(40) << "same priority"
              << std::setw(40) << "low priority"
              << "change\n";
    for (const Compared& row : rows)
    {
        if (row.label.empty())
        {
            continue;
        }
        std::cout << std::left << std::setw(30) << row.label << std::setw(40)
                  << WithEvidence(row.same, row.sameSd, row.sameMedian, row.scale) + " "
                  << std::setw(40)
                  << WithEvidence(row.low, row.lowSd, row.lowMedian, row.scale) + " "
                  << (std::isnan(row.change.estimate) ? "NA (no sample)"
                                                      : ChangeWithInterval(row.change))
                  << (FewSamples(row) ? "  FEW SAMPLES (< " + std::to_string(row.minimum) + ")"
                                      : "")
                  << std::right << "\n";
    }
    for (const auto& [side, result] : {std::pair{"same", &same}, std::pair{"low", &low}})
    {
        for (const std::string& line : SpuriousRetransmissions(*result))
        {
            std::cout << side << " priority: " << line << "\n";
        }
        for (const OutlierIteration& outlier : OutlierIterations(*result))
        {
            std::cout << side << " priority: " << DescribeOutlier(outlier, result->jobs.size() > 1)
                      << "\n";
        }
    }
    std::cout << Verdict(scenario,
                         RowNamed(rows, JobPrefix(0, "_") + "iteration_time_mean_s"),
                         RowNamed(rows, "fct_small_mean_s"))
              << "\n"
              << "files: " << scenario.outDir << "/compare.csv; each run's summary.csv, "
              << "iterations.csv, flows.csv, ... in " << scenario.outDir << "/same/ and "
              << scenario.outDir << "/low/" << std::endl;
}

/** CPU seconds this process has used (user and system). */
double
CpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
           + usage.ru_stime.tv_usec / 1e6;
}

/** The scenario as written beside a stage's outputs: reading it back reruns that stage. */
Scenario
AsRun(const Scenario& stage)
{
    Scenario written = stage;
    written.values.precision = 0;
    return written;
}

/** One run at the scenario's training priority into outDir: summary.csv and the CSVs. */
DatacenterResult
RunOne(const Scenario& scenario, bool writes)
{
    if (writes)
    {
        PrepareOutputDirectory("--outDir", scenario.outDir);
        std::remove((scenario.outDir + "/summary.csv").c_str());
        std::remove((scenario.outDir + "/MANIFEST").c_str());
        WriteScenarioFile(AsRun(scenario), scenario.outDir + "/scenario.xml");
    }
    DatacenterResult r = RunDatacenter(scenario, MakeBackgroundFlows(scenario), scenario.outDir);
    auto rows = SummaryRows(r);
    rows.insert(rows.begin(), {"training_priority", scenario.values.training_priority});
    if (writes)
    {
        WriteKeyValueCsv(scenario.outDir + "/summary.csv", rows);
    }
    return r;
}

/** The same flows with training at the same and at low priority, into outDir/same and /low. */
std::vector<DatacenterResult>
RunComparison(const Scenario& scenario)
{
    std::remove((scenario.outDir + "/compare.csv").c_str());
    std::remove((scenario.outDir + "/MANIFEST").c_str());
    const std::vector<ddnn_flow> flows = MakeBackgroundFlows(scenario);
    std::vector<DatacenterResult> results;
    uint32_t after = 1;
    for (const std::string priority : {"same", "low"})
    {
        std::string dir = scenario.outDir + "/" + priority;
        PrepareOutputDirectory("--outDir", dir);
        std::remove((dir + "/summary.csv").c_str());
        const Scenario resolved = scenario.ComparedAt(priority);
        WriteScenarioFile(AsRun(resolved), dir + "/scenario.xml");
        results.push_back(
            RunDatacenter(resolved,
                          flows,
                          dir,
                          "training " + priority + ", run " + std::to_string(2 - after) + " of 2: ",
                          after));
        --after;
        auto rows = SummaryRows(results.back());
        rows.insert(rows.begin(), {"training_priority", priority});
        WriteKeyValueCsv(dir + "/summary.csv", rows);
    }
    return results;
}

/**
 * The intervals a precision must bring within its target, in percent: with a comparison each
 * job's iteration time change and the small flows' mean FCT change; for one run the
 * half-width of each job's mean iteration and of the small flows' mean FCT relative to the
 * mean (centred on 0).
 */
std::vector<ddnn_interval>
PrecisionIntervals(const std::vector<DatacenterResult>& results)
{
    std::vector<ddnn_interval> out;
    const DatacenterResult& first = results[0];
    if (results.size() == 2)
    {
        for (size_t k = 0; k < first.jobs.size(); ++k)
        {
            out.push_back(IterationChange(
                first.jobs[k].training, results[1].jobs[k].training, first.confidenceLevel));
        }
        out.push_back(FctChange(first, results[1], DDNN_FLOWS_SMALL, DDNN_STATISTIC_MEAN));
        return out;
    }
    auto relative = [](const ddnn_interval& i) {
        const double half = (i.high - i.low) / 2 / i.estimate * 100;
        return ddnn_interval{0, -half, half, kNa, kNa, i.samples, i.batches};
    };
    for (const JobResult& job : first.jobs)
    {
        out.push_back(relative(IterationInterval(job.training, first.confidenceLevel)));
    }
    out.push_back(relative(FctInterval(first, DDNN_FLOWS_SMALL, DDNN_STATISTIC_MEAN)));
    return out;
}

/**
 * The stages of a run with a precision (run.precision > 0): after each, whether another is
 * needed and how long (ddnn_precision_next, within max-cpu-s and max-duration-s); what each
 * measured, printed at the end and written to precision.csv.
 */
class PrecisionLog
{
  public:
    explicit PrecisionLog(const Scenario& scenario)
        : m_scenario(scenario)
    {
    }

    /** After a stage of `stage` that spent cpuS: false when it was the last, else `stage`
     * becomes the next. */
    bool
    Next(Scenario& stage, std::vector<DatacenterResult> results, double cpuS)
    {
        m_last = std::move(results);
        m_spentS += cpuS;
        const double precision = m_scenario.values.precision;
        if (precision <= 0)
        {
            return false;
        }
        const ddnn_scenario& v = stage.values;
        const double margins = v.warmup_s + v.cooldown_s;
        const double window = v.duration_s - margins;
        // The caps as a growth of the window: the CPU left at this stage's cost per simulated
        // second, and the longest duration.
        // (with a margin: a simulated second costs more once the queues have filled)
        const double cpuPerS = cpuS / v.duration_s * 1.2;
        const double longest = std::min(v.max_duration_s, (v.max_cpu_s - m_spentS) / cpuPerS);
        const double maxGrowth = std::max(0.0, (longest - margins) / window);
        const std::vector<ddnn_interval> intervals = PrecisionIntervals(m_last);
        ddnn_precision_step step;
        double growth;
        if (ddnn_precision_next(
                intervals.data(), intervals.size(), precision * 100, maxGrowth, &step, &growth)
            != DDNN_OK)
        {
            throw DdnnError("precision: the stage's intervals cannot be judged");
        }
        std::ostringstream row;
        row << m_rows.size() + 1 << "," << FormatFigure(v.duration_s) << "," << FormatFigure(cpuS);
        for (const ddnn_interval& i : intervals)
        {
            row << "," << FormatFigure((i.high - i.low) / 2);
        }
        row << "," << FormatFigure(precision * 100) << ","
            << (step == DDNN_PRECISION_REACHED  ? "reached"
                : step == DDNN_PRECISION_CAPPED ? "capped"
                                                : "grow");
        m_rows.push_back(row.str());
        m_step = step;
        if (step != DDNN_PRECISION_GROW)
        {
            return false;
        }
        stage.values.duration_s = margins + window * growth;
        return true;
    }

    /** The last stage's results. */
    const std::vector<DatacenterResult>&
    Last() const
    {
        return m_last;
    }

    /** precision.csv and one line on how the stages ended (nothing without a precision). */
    void
    Print() const
    {
        if (m_rows.empty())
        {
            return;
        }
        const ddnn_scenario& v = m_scenario.values;
        AtomicFile csv(m_scenario.outDir + "/precision.csv");
        csv.Out() << "stage,duration_s,cpu_s";
        for (size_t k = 0; k < m_last[0].jobs.size(); ++k)
        {
            csv.Out() << "," << JobPrefix(k, "_") << "iteration_half_width_percent";
        }
        csv.Out() << ",small_flows_half_width_percent,target_percent,step\n";
        for (const std::string& row : m_rows)
        {
            csv.Out() << row << "\n";
        }
        csv.Commit();
        std::ostringstream line;
        line << std::fixed << std::setprecision(1) << "precision: " << m_rows.size()
             << " stage(s), " << m_spentS << " CPU-s; "
             << (m_step == DDNN_PRECISION_REACHED
                     ? "every half-width within +-" + FormatFigure(v.precision * 100, 3)
                           + " points ("
                           + (m_scenario.compare ? "the changes" : "the means, relative") + ")"
                     : "the cap (--maxCpuS=" + FormatFigure(v.max_cpu_s, 4)
                           + ", --maxDurationS=" + FormatFigure(v.max_duration_s, 4)
                           + "), not the precision, ended it: a half-width is still above +-"
                           + FormatFigure(v.precision * 100, 3) + " points")
             << "; stages in " << m_scenario.outDir << "/precision.csv"
             << "\n";
        std::cout << line.str() << std::flush;
    }

  private:
    const Scenario m_scenario;
    std::vector<DatacenterResult> m_last;
    std::vector<std::string> m_rows;
    double m_spentS{0};
    ddnn_precision_step m_step{DDNN_PRECISION_REACHED};
};

/**
 * A precision whose cap cannot pay even for its first stage, known before anything runs: the
 * first stage's estimated CPU (ddnn-campaign's estimate, from data/calibration.csv; once per
 * side with --compare), taken at half since the estimate holds within a factor 2, above
 * max-cpu-s.
 */
void
CheckFirstStageFitsCap(const Scenario& scenario)
{
    const double sides = scenario.compare ? 2 : 1;
    const double estimate
        = sides * EstimateRun(ReadCalibration(DdnnDataPath("calibration.csv")), scenario).cpuS;
    if (estimate / 2 > scenario.values.max_cpu_s)
    {
        throw DdnnError("--maxCpuS=" + FormatFigure(scenario.values.max_cpu_s)
                        + ": the first stage (--durationS="
                        + FormatFigure(scenario.values.duration_s) + ") alone is estimated at "
                        + FormatFigure(estimate, 3)
                        + " CPU-s; expected a cap above half of that, or a shorter --durationS");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Scenario scenario;
    scenario.outDir = "ddnn-datacenter-output";
    try
    {
        DistributedRun::Begin(&argc, &argv); // before anything else: MPI takes its arguments
        // Rank 0 writes the outputs: every rank holds the whole run after the merge.
        const bool writes = DistributedRun::Rank() == 0;
        CommandLine cmd = ProgramCommandLine(__FILE__);
        AddProgramOptions(cmd, scenario, true);
        bool mpi = false;
        std::string mpiSync = "barrier";
        AddOption(cmd,
                  "mpi",
                  "one run on many processes: ns-3's distributed simulator, one rank per "
                  "process under mpirun or srun (an ns-3 built with --enable-mpi: ./ddnn mpi)",
                  mpi);
        AddOption(cmd,
                  "mpiSync",
                  "with --mpi: barrier (ns-3's DistributedSimulatorImpl) or null-message "
                  "(NullMessageSimulatorImpl)",
                  mpiSync);
        ParseArguments(
            "ddnn-datacenter",
            cmd,
            argc,
            argv,
            scenario,
            {"topology", "training", "transport", "background", "priority", "run", "output"});
        // DistributedRun::Begin read --mpi before ns-3 did; a spelling only ns-3 reads would
        // leave one process running the whole network as if it were one rank of many.
        if (mpi != DistributedRun::Enabled())
        {
            throw DdnnError("--mpi: expected --mpi, --mpi=true or --mpi=1 (read before MPI "
                            "starts)");
        }
        if (!mpi && CommandLineGives(argc, argv, "mpiSync"))
        {
            throw DdnnError("--mpiSync: read only with --mpi (leave it out, or add --mpi)");
        }

        scenario.Validate();
        if (scenario.values.precision > 0 && DistributedRun::Enabled())
        {
            throw DdnnError("--precision with --mpi: expected one stage per mpirun (give "
                            "--precision=0 and the --durationS to run)");
        }
        if (scenario.values.precision > 0)
        {
            CheckFirstStageFitsCap(scenario);
        }
        if (scenario.compare && DistributedRun::Enabled())
        {
            throw DdnnError("--compare with --mpi: expected one run per mpirun (run at each "
                            "priority with --priority.training)");
        }
        if (writes)
        {
            PrepareOutputDirectory("--outDir", scenario.outDir);
            LockOutputDirectory("--outDir", scenario.outDir);
            if (const std::string note = ScaleNote(scenario); !note.empty())
            {
                std::cout << note << std::endl;
            }
        }
        // Stages: one of duration-s, or with a precision as many as it takes (ddnn-precision.h).
        PrecisionLog log(scenario);
        Scenario stage = scenario;
        for (;;)
        {
            stage.CheckWindow(); // before anything is simulated
            const double before = CpuSeconds();
            const std::vector<DatacenterResult> results
                = stage.compare ? RunComparison(stage) : std::vector{RunOne(stage, writes)};
            if (!log.Next(stage, results, CpuSeconds() - before))
            {
                break;
            }
        }
        if (writes)
        {
            if (stage.compare)
            {
                WriteComparison(stage, log.Last()[0], log.Last()[1]);
            }
            else
            {
                PrintRun("training priority " + std::string(stage.values.training_priority),
                         log.Last()[0]);
            }
            log.Print();
            WriteOutputManifest(scenario.outDir); // last: the run is complete
        }
        DistributedRun::End();
    }
    catch (...)
    {
        return ReportFailure("ddnn-datacenter");
    }
    return 0;
}
