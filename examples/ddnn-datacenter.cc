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

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

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

void
PrintRun(const std::string& label, const DatacenterResult& r)
{
    std::cout << std::fixed << std::setprecision(3) << "[" << label << "]\n";
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const TrainingSummary& t = r.jobs[k].training;
        std::cout << "  training" << (r.jobs.size() > 1 ? " job " + std::to_string(k + 1) : "")
                  << ": " << t.iterationsCompleted << " iterations, mean "
                  << Ms(t.iterationTimeMeanS) << " ms (n=" << t.iterationsMeasured
                  << " in the window, sd " << Ms(t.iterationTimeSdS) << " ms; compute "
                  << Ms(t.computeTimeS) << " ms)\n";
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
    std::cout << "  flows   started  completed   mean FCT    p50 FCT    p99 FCT  (ms)\n";
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        const ddnn_flow_class_stats& s = r.fct[c];
        std::cout << "  " << std::left << std::setw(6)
                  << ddnn_flow_class_name(static_cast<ddnn_flow_class>(c)) << std::right
                  << std::setw(9) << s.started << std::setw(11) << s.completed << std::setw(11)
                  << Ms(s.mean_s) << std::setw(11) << Ms(s.p50_s) << std::setw(11) << Ms(s.p99_s)
                  << "\n";
    }
    std::cout << "  band  drops at servers  at switches  retransmissions  (packets)\n";
    for (size_t b = 0; b < r.serverBands.drops.size(); ++b)
    {
        std::cout << "  " << std::setw(4) << b << std::setw(18)
                  << Count(r.serverBands, r.serverBands.drops, b) << std::setw(13)
                  << Count(r.switchBands, r.switchBands.drops, b) << std::setw(17)
                  << Count(r.serverBands, r.retransmissions, b) << "\n";
    }
}

double
ChangePercent(double same, double low)
{
    // No sample on either side, or nothing to compare with: missing, not 0 %.
    return same != 0 ? (low - same) / same * 100 : std::numeric_limits<double>::quiet_NaN();
}

/** One figure at both priorities, with its evidence: a row of compare.csv. */
struct Compared
{
    std::string key;
    std::string label; //!< on screen; "" for a row of compare.csv only
    double scale;      //!< from the figure's unit to the screen's
    double same;
    double low;
    uint64_t sameSamples;
    uint64_t lowSamples;
    double sameSd;
    double lowSd;
    uint64_t minimum; //!< fewer samples on either side: flagged; 0: never
};

const double kNa = std::numeric_limits<double>::quiet_NaN();

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
        rows.push_back({JobPrefix(k, "_") + "iteration_time_mean_s",
                        "iteration time (ms)" + job,
                        1e3,
                        a.iterationTimeMeanS,
                        b.iterationTimeMeanS,
                        a.iterationsMeasured,
                        b.iterationsMeasured,
                        a.iterationTimeSdS,
                        b.iterationTimeSdS,
                        std::max<uint64_t>(same.minIterations, 1)});
        rows.push_back({JobPrefix(k, "_") + "allreduce_time_mean_s",
                        "allreduce time (ms)" + job,
                        1e3,
                        a.allreduceTimeMeanS,
                        b.allreduceTimeMeanS,
                        a.allreducesMeasured,
                        b.allreducesMeasured,
                        a.allreduceTimeSdS,
                        b.allreduceTimeSdS,
                        1});
    }
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        const std::string name = ddnn_flow_class_name(static_cast<ddnn_flow_class>(c));
        const ddnn_flow_class_stats& a = same.fct[c];
        const ddnn_flow_class_stats& b = low.fct[c];
        const bool shown = c != DDNN_FLOWS_ALL;
        rows.push_back({"fct_" + name + "_mean_s",
                        shown ? name + " flows: mean FCT (ms)" : "",
                        1e3,
                        a.mean_s,
                        b.mean_s,
                        a.completed,
                        b.completed,
                        a.sd_s,
                        b.sd_s,
                        same.minFlows});
        rows.push_back({"fct_" + name + "_p99_s",
                        shown ? name + " flows: p99 FCT (ms)" : "",
                        1e3,
                        a.p99_s,
                        b.p99_s,
                        a.completed,
                        b.completed,
                        kNa,
                        kNa,
                        same.minFlows});
    }
    // Utilization: the mean over the window's bins (their count is the samples).
    const uint64_t bins = std::llround(same.windowS / same.utilIntervalS);
    double sameTraining = 0;
    double lowTraining = 0;
    for (size_t k = 0; k < same.jobs.size(); ++k)
    {
        sameTraining += same.jobs[k].utilTrainingMeasured * same.jobs[k].training.workers;
        lowTraining += low.jobs[k].utilTrainingMeasured * low.jobs[k].training.workers;
    }
    const double servers = static_cast<double>(same.linkUtilization.size());
    rows.push_back({"util_training_measured",
                    "training's uplink use (%)",
                    100,
                    sameTraining / servers,
                    lowTraining / servers,
                    bins,
                    bins,
                    kNa,
                    kNa,
                    0});
    rows.push_back({"util_background_measured",
                    "background's uplink use (%)",
                    100,
                    same.utilBackgroundMeasured,
                    low.utilBackgroundMeasured,
                    bins,
                    bins,
                    kNa,
                    kNa,
                    0});
    return rows;
}

bool
FewSamples(const Compared& row)
{
    return row.minimum > 0 && (row.sameSamples < row.minimum || row.lowSamples < row.minimum);
}

/** "12.3 (n=40, sd 1.2)": a figure on screen with its sample count and spread. */
std::string
WithEvidence(double value, uint64_t samples, double sd, double scale)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3);
    if (std::isnan(value))
    {
        os << "NA";
    }
    else
    {
        os << value * scale;
    }
    os << " (n=" << samples;
    if (!std::isnan(sd))
    {
        os << ", sd " << std::setprecision(3) << sd * scale;
    }
    os << ")";
    return os.str();
}

/**
 * The thesis's verdict on the iteration slowdown (ddnn-campaign's green and red thresholds:
 * at most 1 % safe, up to 30 % costly, more harmful), or why there is none.
 */
std::string
Verdict(const Compared& iteration, const Compared& smallFlows)
{
    const double slowdown = ChangePercent(iteration.same, iteration.low);
    std::ostringstream os;
    os << std::fixed << std::setprecision(1);
    if (std::isnan(slowdown) || FewSamples(iteration))
    {
        os << "no verdict: fewer than " << iteration.minimum
           << " iterations measured at one priority (n=" << iteration.sameSamples << " and "
           << iteration.lowSamples << "); give a longer --durationS";
        return os.str();
    }
    os << (slowdown <= 1    ? "SAFE"
           : slowdown <= 30 ? "COSTLY"
                            : "HARMFUL")
       << ": training at low priority changes its iteration time by " << std::showpos << slowdown
       << std::noshowpos << " %"
       << (slowdown <= 1    ? " (at most 1 %: safe)"
           : slowdown <= 30 ? " (between 1 and 30 %: costly)"
                            : " (more than 30 %: harmful)");
    const double gain = ChangePercent(smallFlows.same, smallFlows.low);
    if (!std::isnan(gain))
    {
        os << "; small flows' mean FCT changes by " << std::showpos << gain << std::noshowpos
           << " %" << (FewSamples(smallFlows) ? " (few flows)" : "");
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
    csv << "key,same,low,change_percent,same_samples,low_samples,same_sd,low_sd,few_samples\n";
    for (const Compared& row : rows)
    {
        csv << row.key << "," << FormatFigure(row.same) << "," << FormatFigure(row.low) << ","
            << FormatFigure(ChangePercent(row.same, row.low)) << "," << row.sameSamples << ","
            << row.lowSamples << "," << FormatFigure(row.sameSd) << "," << FormatFigure(row.lowSd)
            << "," << (FewSamples(row) ? "true" : "false") << "\n";
    }
    compare.Commit();

    std::cout << "Training at same vs low priority, the same background flows, window ["
              << scenario.values.warmup_s << ", "
              << scenario.values.duration_s - scenario.values.cooldown_s
              << ") s; n: samples, sd: their spread\n";
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        // A policy decides per buffer at low priority; the same-priority run is the reference.
        if (!Is(scenario.Job(k).priority_policy, "static"))
        {
            std::cout << "job " << k + 1 << ": low priority under priority policy "
                      << scenario.Job(k).priority_policy
                      << ", same priority with every buffer at it (policy static)\n";
        }
    }
    std::cout << std::left << std::setw(30) << "" << std::setw(29) << "same priority"
              << std::setw(29) << "low priority"
              << "change\n";
    for (const Compared& row : rows)
    {
        if (row.label.empty())
        {
            continue;
        }
        const double change = ChangePercent(row.same, row.low);
        std::ostringstream changeText;
        changeText << std::fixed << std::setprecision(1) << std::showpos << change << " %";
        std::cout << std::left << std::setw(30) << row.label << std::setw(29)
                  << WithEvidence(row.same, row.sameSamples, row.sameSd, row.scale) << std::setw(29)
                  << WithEvidence(row.low, row.lowSamples, row.lowSd, row.scale)
                  << (std::isnan(change) ? "NA (no sample)" : changeText.str())
                  << (FewSamples(row) ? "  FEW SAMPLES (< " + std::to_string(row.minimum) + ")"
                                      : "")
                  << std::right << "\n";
    }
    std::cout << Verdict(rows[0], rows[2 * same.jobs.size()]) << "\n"
              << "files: " << scenario.outDir << "/compare.csv; each run's summary.csv, "
              << "iterations.csv, flows.csv, ... in " << scenario.outDir << "/same/ and "
              << scenario.outDir << "/low/" << std::endl;
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
        CommandLine cmd(__FILE__);
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

        scenario.Validate();
        scenario.CheckWindow(); // before anything is simulated
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(scenario);
        if (!scenario.compare)
        {
            if (writes)
            {
                PrepareOutputDirectory("--outDir", scenario.outDir);
                std::remove((scenario.outDir + "/summary.csv").c_str());
                std::remove((scenario.outDir + "/MANIFEST").c_str());
                WriteScenarioFile(scenario, scenario.outDir + "/scenario.xml");
            }
            const std::string priority = scenario.values.training_priority;
            DatacenterResult r = RunDatacenter(scenario, flows, scenario.outDir);
            auto rows = SummaryRows(r);
            rows.insert(rows.begin(), {"training_priority", priority});
            if (writes)
            {
                WriteKeyValueCsv(scenario.outDir + "/summary.csv", rows);
                PrintRun("training priority " + priority, r);
                WriteOutputManifest(scenario.outDir); // last: the run is complete
            }
            DistributedRun::End();
            return 0;
        }
        if (DistributedRun::Enabled())
        {
            throw DdnnError("--compare with --mpi: expected one run per mpirun (run at each "
                            "priority with --priority.training)");
        }

        // Comparison: the same flows, training at the same and at low priority.
        std::remove((scenario.outDir + "/compare.csv").c_str());
        std::remove((scenario.outDir + "/MANIFEST").c_str());
        std::map<std::string, DatacenterResult> results;
        uint32_t after = 1;
        for (const std::string priority : {"same", "low"})
        {
            std::string dir = scenario.outDir + "/" + priority;
            PrepareOutputDirectory("--outDir", dir);
            std::remove((dir + "/summary.csv").c_str());
            const Scenario resolved = scenario.ComparedAt(priority);
            WriteScenarioFile(resolved, dir + "/scenario.xml");
            results[priority] = RunDatacenter(resolved,
                                              flows,
                                              dir,
                                              "training " + priority + ", run "
                                                  + std::to_string(2 - after) + " of 2: ",
                                              after);
            --after;
            auto rows = SummaryRows(results[priority]);
            rows.insert(rows.begin(), {"training_priority", priority});
            WriteKeyValueCsv(dir + "/summary.csv", rows);
        }
        WriteComparison(scenario, results["same"], results["low"]);
        WriteOutputManifest(scenario.outDir); // last: the run is complete
    }
    catch (...)
    {
        return ReportFailure("ddnn-datacenter");
    }
    return 0;
}
