/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One training job alone on its network (a single ToR unless the scenario names a fabric),
 * with any registered collective.
 *
 * Runs the job (over TCP by default), then the same job on the ideal
 * transport as a reference (none for a collective that aggregates in a switch: the ideal
 * transport moves bytes between ranks only), writes iterations.csv, buffers.csv,
 * partitions.csv and summary.csv into --outDir, and prints a summary.
 *
 *   ./ddnn-training --workers=4 --rcp=4 --iterations=3 --queue=priority --outDir=out
 */

#include "runner/runner.h"

#include "ns3/core-module.h"

#include "ns3/ddnn-module.h"
#include <algorithm>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/** ", sd X ms" of a spread in seconds; nothing below two samples (NaN). */
std::string
Spread(double sd)
{
    std::ostringstream os;
    if (!std::isnan(sd))
    {
        os << std::fixed << std::setprecision(3) << ", sd " << sd * 1e3 << " ms";
    }
    return os.str();
}

/** measured / reference; NaN (written NA) without a reference. */
double
Ratio(double measured, double reference)
{
    return reference > 0 ? measured / reference : std::nan("");
}

/** "R x ideal" of a ratio, or "no ideal reference" without one. */
std::string
RatioText(double ratio)
{
    std::ostringstream os;
    if (std::isnan(ratio))
    {
        os << "no ideal reference";
    }
    else
    {
        os << std::fixed << std::setprecision(3) << ratio << " x ideal";
    }
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    // The scenario's values (a file's <run> included) and this program's options.
    Scenario scenario;
    // This program's defaults: two iterations, not a run; the job alone, at the ToS every
    // tenant has by default (there is no other tenant to yield to).
    scenario.values.jobs[0].iterations = 2;
    scenario.Set("priority.training", "same");
    scenario.outDir = "ddnn-training-output";
    try
    {
        if (std::any_of(argv + 1, argv + argc, [](const char* arg) {
                return std::string(arg) == "--mpi" || std::string(arg).rfind("--mpi=", 0) == 0;
            }))
        {
            throw DdnnError("--mpi: ddnn-training runs in one process (its reference run's "
                            "ideal transport needs every worker in one); run ddnn-datacenter "
                            "with --mpi");
        }
        CommandLine cmd = ProgramCommandLine(__FILE__);
        AddProgramOptions(cmd, scenario, false);
        ParseArguments(
            "ddnn-training",
            cmd,
            argc,
            argv,
            scenario,
            {"topology", "training", "transport", "priority", "run.seed", "run.rng-run"});
        scenario = scenario.TrainingPart(); // a scenario file's run: train until its end
        const ddnn_scenario_job& job = scenario.Job(0);

        scenario.ValidateTraining();
        PrepareOutputDirectory("--outDir", scenario.outDir);
        LockOutputDirectory("--outDir", scenario.outDir);
        // A failed run must not leave an older summary looking current.
        std::remove((scenario.outDir + "/summary.csv").c_str());
        std::remove((scenario.outDir + "/MANIFEST").c_str());
        Scenario resolved = scenario;
        resolved.values.duration_s = job.stop_s > 0 ? job.stop_s : resolved.values.duration_s;
        WriteScenarioFile(resolved, scenario.outDir + "/scenario.xml");

        TrainingRunResult run = RunTraining(scenario, scenario.outDir);
        TrainingRunResult ideal = run;
        const ddnn_collective_ops* collective = ddnn_collective_find(job.collective);
        const bool switchAggregates = collective != nullptr && collective->network_peer;
        if (switchAggregates)
        {
            ideal.summary = TrainingSummary{}; // its figures are written NA
        }
        else if (!Is(job.transport, "ideal"))
        {
            Scenario reference = scenario;
            reference.UseJobTransport(0, "ideal");
            ideal = RunTraining(reference, "");
        }
        const TrainingSummary& s = run.summary;
        const TrainingSummary& i = ideal.summary;
        if (s.iterationsCompleted == 0)
        {
            throw DdnnError("no iteration completed: give more --iterations or a later --stopS");
        }

        std::vector<std::pair<std::string, std::string>> rows = {
            {"workers", std::to_string(s.workers)},
            {"transport", job.transport},
            {"queue", job.queue},
            {"barrier", job.barrier ? "true" : "false"},
            {"iterations_completed", std::to_string(s.iterationsCompleted)},
            {"model_bytes", std::to_string(run.modelBytes)},
            {"compute_time_s", FormatFigure(s.computeTimeS)},
            {"iteration_time_mean_s", FormatFigure(s.iterationTimeMeanS)},
            {"iterations_measured", std::to_string(s.iterationsMeasured)},
            {"iteration_time_sd_s", FormatFigure(s.iterationTimeSdS)},
            {"samples_per_second", FormatFigure(SamplesPerSecond(job.batch_size, s))},
            {"allreduce_time_mean_s", FormatFigure(s.allreduceTimeMeanS)},
            {"allreduces_measured", std::to_string(s.allreducesMeasured)},
            {"allreduce_time_sd_s", FormatFigure(s.allreduceTimeSdS)},
            {"aggregation_time_mean_s", FormatFigure(s.aggregationTimeMeanS)},
            {"aggregation_time_sd_s", FormatFigure(s.aggregationTimeSdS)},
            {"distribution_time_mean_s", FormatFigure(s.distributionTimeMeanS)},
            {"distribution_time_sd_s", FormatFigure(s.distributionTimeSdS)},
            {"phases_measured", std::to_string(s.phasesMeasured)},
            {"bytes_per_worker_per_iteration", FormatFigure(s.bytesPerWorkerPerIteration)},
            {"expected_bytes_per_worker_per_iteration",
             FormatFigure(s.expectedBytesPerWorkerPerIteration)},
            {"ideal_allreduce_time_s", FormatFigure(s.idealAllreduceTimeS)},
            {"ideal_iteration_time_mean_s",
             FormatFigure(switchAggregates ? std::nan("") : i.iterationTimeMeanS)},
            {"ideal_allreduce_time_mean_s",
             FormatFigure(switchAggregates ? std::nan("") : i.allreduceTimeMeanS)},
            {"iteration_time_ratio_to_ideal",
             FormatFigure(Ratio(s.iterationTimeMeanS, i.iterationTimeMeanS))},
            {"allreduce_time_ratio_to_ideal",
             FormatFigure(Ratio(s.allreduceTimeMeanS, i.allreduceTimeMeanS))},
            {"bytes_ratio_to_expected",
             FormatFigure(
                 Ratio(s.bytesPerWorkerPerIteration, s.expectedBytesPerWorkerPerIteration))},
        };
        // A Chakra trace's own expected bytes beside the measured ones, in trace runs only.
        if (!std::isnan(s.traceExpectedBytesPerWorkerPerIteration))
        {
            const auto after = std::find_if(rows.begin(), rows.end(), [](const auto& row) {
                return row.first == "expected_bytes_per_worker_per_iteration";
            });
            rows.insert(after + 1,
                        {"trace_expected_bytes_per_worker_per_iteration",
                         FormatFigure(s.traceExpectedBytesPerWorkerPerIteration)});
        }
        WriteKeyValueCsv(scenario.outDir + "/summary.csv", rows);
        WriteOutputManifest(scenario.outDir); // last: the run is complete

        std::cout << std::fixed << std::setprecision(3) << "ddnn-training: " << s.workers
                  << " workers, " << job.transport << " transport, queue " << job.queue
                  << ", barrier " << (job.barrier ? "on" : "off") << "\n"
                  << "  iterations completed        " << s.iterationsCompleted << "\n"
                  << "  compute time / iteration    " << s.computeTimeS * 1e3 << " ms\n"
                  << "  iteration time (mean)       " << s.iterationTimeMeanS * 1e3 << " ms   ("
                  << RatioText(Ratio(s.iterationTimeMeanS, i.iterationTimeMeanS))
                  << "; n=" << s.iterationsMeasured << Spread(s.iterationTimeSdS) << ")\n"
                  << "  allreduce time per buffer   " << s.allreduceTimeMeanS * 1e3 << " ms   ("
                  << RatioText(Ratio(s.allreduceTimeMeanS, i.allreduceTimeMeanS))
                  << "; n=" << s.allreducesMeasured << Spread(s.allreduceTimeSdS) << ")\n"
                  << "  bytes / worker / iteration  " << std::setprecision(0)
                  << s.bytesPerWorkerPerIteration << "   (" << std::setprecision(6)
                  << Ratio(s.bytesPerWorkerPerIteration, s.expectedBytesPerWorkerPerIteration)
                  << " x expected: what the collective sends per worker)\n"
                  << (std::isnan(s.traceExpectedBytesPerWorkerPerIteration)
                          ? std::string()
                          : "  trace's own expected bytes  "
                                + FormatFigure(s.traceExpectedBytesPerWorkerPerIteration)
                                + "   (2(N-1)/N x each all-reduce's comm_size)\n")
                  << "  output                      " << scenario.outDir << "/summary.csv\n";
        if (switchAggregates)
        {
            std::cout << "  no ideal reference: " << job.collective
                      << " aggregates in a switch, which the ideal transport (bytes between "
                         "ranks only) does not model; its ideal_* figures are NA\n";
        }
    }
    catch (...)
    {
        return ReportFailure("ddnn-training");
    }
    return 0;
}
