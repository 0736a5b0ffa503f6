/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The training job and background web-search flows together on a single-ToR
 * network: does de-prioritizing training make the other tenant's flows finish
 * sooner, and what does it cost training?
 *
 * Writes summary.csv, flows.csv, utilization.csv and the training CSVs into
 * --outDir. With --compare, runs the same flows with training at the same and
 * at low priority (into outDir/same and outDir/low) and writes compare.csv.
 *
 *   ./ddnn-datacenter --workers=8 --rcp=4 --flowRate=92 --durationS=1 --warmupS=0.2 \
 *                     --cooldownS=0.2 --compare
 *   ./ddnn-datacenter --scenario=data/scenarios/thesis-defaults.xml --durationS=1
 *
 * Every run writes its resolved scenario to outDir/scenario.xml: reading it
 * back (--scenario=outDir/scenario.xml) reproduces the run.
 */

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

void
PrintRun(const std::string& label, const DatacenterResult& r)
{
    std::cout << std::fixed << std::setprecision(3) << "[" << label << "]\n";
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const TrainingSummary& t = r.jobs[k].training;
        std::cout << "  training" << (r.jobs.size() > 1 ? " job " + std::to_string(k + 1) : "")
                  << ": " << t.iterationsCompleted << " iterations, mean "
                  << t.iterationTimeMeanS * 1e3 << " ms (compute " << t.computeTimeS * 1e3
                  << " ms)\n";
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
                  << s.mean_s * 1e3 << std::setw(11) << s.p50_s * 1e3 << std::setw(11)
                  << s.p99_s * 1e3 << "\n";
    }
}

double
ChangePercent(double same, double low)
{
    // No sample on either side, or nothing to compare with: missing, not 0 %.
    return same != 0 ? (low - same) / same * 100 : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

int
main(int argc, char* argv[])
{
    DatacenterScenario scenario;
    scenario.outDir = "ddnn-datacenter-output";
    try
    {
        CommandLine cmd(__FILE__);
        scenario.AddArguments(cmd);
        ParseArguments(
            "ddnn-datacenter",
            cmd,
            argc,
            argv,
            scenario,
            {"topology", "training", "transport", "background", "priority", "run", "output"});

        scenario.Validate();
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(scenario);
        if (!scenario.compare)
        {
            PrepareOutputDirectory("--outDir", scenario.outDir);
            std::remove((scenario.outDir + "/summary.csv").c_str());
            std::remove((scenario.outDir + "/MANIFEST").c_str());
            WriteScenarioFile(scenario, scenario.outDir + "/scenario.xml");
            DatacenterResult r
                = RunDatacenter(scenario, scenario.trainingPriority, flows, scenario.outDir);
            auto rows = SummaryRows(r);
            rows.insert(rows.begin(), {"training_priority", scenario.trainingPriority});
            WriteKeyValueCsv(scenario.outDir + "/summary.csv", rows);
            PrintRun("training priority " + scenario.trainingPriority, r);
            WriteOutputManifest(scenario.outDir); // last: the run is complete
            return 0;
        }

        // Comparison: the same flows, training at the same and at low priority.
        std::remove((scenario.outDir + "/compare.csv").c_str());
        std::remove((scenario.outDir + "/MANIFEST").c_str());
        std::map<std::string, DatacenterResult> results;
        for (const std::string priority : {"same", "low"})
        {
            std::string dir = scenario.outDir + "/" + priority;
            PrepareOutputDirectory("--outDir", dir);
            std::remove((dir + "/summary.csv").c_str());
            DatacenterScenario resolved = scenario;
            resolved.trainingPriority = priority;
            resolved.compare = false;
            WriteScenarioFile(resolved, dir + "/scenario.xml");
            results[priority] = RunDatacenter(scenario, priority, flows, dir);
            auto rows = SummaryRows(results[priority]);
            rows.insert(rows.begin(), {"training_priority", priority});
            WriteKeyValueCsv(dir + "/summary.csv", rows);
            PrintRun("training priority " + priority, results[priority]);
        }
        const DatacenterResult& same = results["same"];
        const DatacenterResult& low = results["low"];
        std::vector<std::tuple<std::string, double, double>> keys
            = {{"iteration_time_mean_s",
                same.jobs[0].training.iterationTimeMeanS,
                low.jobs[0].training.iterationTimeMeanS}};
        for (size_t k = 1; k < same.jobs.size(); ++k)
        {
            keys.emplace_back(JobPrefix(k, "_") + "iteration_time_mean_s",
                              same.jobs[k].training.iterationTimeMeanS,
                              low.jobs[k].training.iterationTimeMeanS);
        }
        for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
        {
            std::string name = ddnn_flow_class_name(static_cast<ddnn_flow_class>(c));
            keys.emplace_back("fct_" + name + "_mean_s", same.fct[c].mean_s, low.fct[c].mean_s);
            keys.emplace_back("fct_" + name + "_p99_s", same.fct[c].p99_s, low.fct[c].p99_s);
        }
        AtomicFile compare(scenario.outDir + "/compare.csv");
        std::ofstream& csv = compare.Out();
        csv << "key,same,low,change_percent\n";
        std::cout << "[low vs same priority: change in percent]\n";
        for (const auto& [key, a, b] : keys)
        {
            const double change = ChangePercent(a, b);
            csv << key << "," << FormatFigure(a) << "," << FormatFigure(b) << ","
                << FormatFigure(change) << "\n";
            std::cout << "  " << std::left << std::setw(24) << key << std::right << std::fixed
                      << std::setprecision(2) << std::setw(9);
            if (std::isnan(change))
            {
                std::cout << "NA"
                          << "   (no sample)\n";
            }
            else
            {
                std::cout << change << " %\n";
            }
        }
        compare.Commit();
        WriteOutputManifest(scenario.outDir); // last: the run is complete
    }
    catch (...)
    {
        return ReportFailure("ddnn-datacenter");
    }
    return 0;
}
