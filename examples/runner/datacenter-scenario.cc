/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "datacenter-scenario.h"

#include "ns3/atomic-file.h"
#include "ns3/background-helper.h"
#include "ns3/egress-queue.h"
#include "ns3/single-tor-helper.h"
#include "ns3/utilization-meter.h"
#include "program-main.h"
#include "progress-meter.h"
#include "scenario-file.h"

#include "ns3/boolean.h"
#include "ns3/data-path.h"
#include "ns3/ddnn-scenario.h"
#include "ns3/dnn-model.h"
#include "ns3/double.h"
#include "ns3/fabric-topology.h"
#include "ns3/one-line-error.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tenant-priority.h"
#include "ns3/training-worker.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>

namespace ns3
{

DatacenterScenario::DatacenterScenario()
{
    // One set of defaults for files and command lines: the core's (thesis Tables 5.1, 5.2).
    ddnn_scenario defaults;
    ddnn_scenario_defaults(&defaults);
    ApplyCoreScenario(defaults, "", *this);
}

void
DatacenterScenario::AddArguments(CommandLine& cmd)
{
    TrainingScenario::AddArguments(cmd);
    AddOption(cmd, "compare", "run at same and at low priority with the same flows", compare);
}

void
DatacenterScenario::Validate() const
{
    auto fail = [](const std::string& argument, const std::string& what) {
        throw DdnnError("--" + argument + ": " + what);
    };
    CheckRanges(ToCoreScenario(*this)); // each value within its parameter's range
    const std::vector<TrainingJobParameters> jobs = Jobs();
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        const uint32_t bands = EgressQueue::Bands(EgressQueue::FromScenario(queueDisc));
        if (jobs[k].band != "scenario" && std::stoul(jobs[k].band) >= bands)
        {
            throw DdnnError(JobArgument(k, "band") + ": band " + jobs[k].band
                            + " needs --queueDisc=prio4; " + queueDisc + " has bands 0 to "
                            + std::to_string(bands - 1));
        }
        if (!(jobs[k].startS < durationS))
        {
            std::ostringstream os;
            os << JobArgument(k, "startS") << ": the job starts at " << jobs[k].startS
               << " s, not before the run's end at " << durationS << " s";
            throw DdnnError(os.str());
        }
    }
    TrainingPart(trainingPriority).Validate(); // after the bands are known to exist
    if (!(warmupS + cooldownS < durationS))
    {
        std::ostringstream os;
        os << "the measurement window [" << warmupS << ", " << durationS - cooldownS
           << ") s lies outside the run of " << durationS << " s";
        fail("cooldownS", os.str());
    }
    // What the run will hold in memory, before anything is built: every flow's record (about
    // 200 bytes with its sockets' bookkeeping) and every utilization bin of every link.
    const double maxRecords = 1e7;
    const double flows = flowRate * GetServerCount() * durationS;
    if (schedule.empty() && flows > maxRecords)
    {
        std::ostringstream os;
        os << flowRate << " flows/s per server x " << GetServerCount() << " servers x " << durationS
           << " s makes " << flows << " flows, more than 10^7 (about 2 GB)";
        fail("flowRate", os.str());
    }
    const double bins = durationS / (utilIntervalMs / 1e3) * GetServerCount() * 4;
    if (bins > maxRecords)
    {
        std::ostringstream os;
        os << durationS << " s in bins of " << utilIntervalMs << " ms on " << GetServerCount() * 4
           << " links makes " << bins << " bins, more than 10^7";
        fail("utilIntervalMs", os.str());
    }
}

std::pair<uint8_t, uint8_t>
DatacenterScenario::TosOf(const std::string& priority) const
{
    // The training's priority against the background's, by the tenants' priority names.
    const auto tos
        = [](const char* name) { return TenantPriority::Tos("--trainingPriority", name); };
    if (priority == "low")
    {
        return {tos("low"), tos("same")};
    }
    if (priority == "high")
    {
        return {tos("high"), tos("band1")};
    }
    return {tos("same"), tos("same")};
}

TrainingScenario
DatacenterScenario::TrainingPart(const std::string& priority) const
{
    const uint8_t trainingTos = TosOf(priority).first;
    TrainingScenario training = *this;
    for (TrainingJobParameters* job : training.JobPointers())
    {
        job->tos = job->band == "scenario"
                       ? trainingTos
                       : EgressQueue::TosOfBand(EgressQueue::FromScenario(queueDisc),
                                                std::stoul(job->band));
        if (job->iterations == 0 && !(job->stopS > 0))
        {
            job->stopS = durationS; // trains until the end of the run
        }
    }
    return training;
}

void
DatacenterScenario::CheckWindow(const std::string& duration,
                                const std::string& minimum,
                                const std::string& context) const
{
    if (minIterations == 0 || !(warmupS + cooldownS < durationS))
    {
        return; // no check asked for, or no window at all (Validate says so)
    }
    const TrainingScenario training = TrainingPart(trainingPriority);
    const std::vector<TrainingJobParameters> jobs = training.Jobs();
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        const double ideal = IdealIterationTime(training, jobs[k]).GetSeconds();
        const double from = std::max(warmupS, jobs[k].startS);
        const double holds = (durationS - cooldownS - from) / ideal;
        if (holds >= minIterations)
        {
            continue;
        }
        // Rounded up to the millisecond, so that the duration it names passes.
        const double needed = std::ceil((from + minIterations * ideal + cooldownS) * 1e3) / 1e3;
        std::ostringstream os;
        std::ostringstream milliseconds;
        milliseconds << std::fixed << std::setprecision(ideal < 0.01 ? 3 : 1) << ideal * 1e3;
        os << context << duration << "=" << durationS << ": the measurement window [" << from
           << ", " << durationS - cooldownS << ") s holds at most " << std::setprecision(3)
           << std::max(holds, 0.0) << " iterations"
           << (jobs.size() > 1 ? " of training job " + std::to_string(k + 1) : "")
           << " (ideal iteration " << milliseconds.str() << " ms), fewer than " << minimum << "="
           << minIterations << ": give " << duration << "=" << std::setprecision(12) << needed
           << " or more (or " << minimum << "=0 to measure flows only)";
        throw DdnnError(os.str());
    }
}

Time
DatacenterScenario::WindowStart() const
{
    return Seconds(warmupS);
}

Time
DatacenterScenario::WindowEnd() const
{
    return Seconds(durationS - cooldownS);
}

namespace
{

Ptr<BackgroundHelper>
MakeBackgroundHelper(const DatacenterScenario& s, uint8_t tos)
{
    Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
    helper->SetAttribute("FlowRate", DoubleValue(s.flowRate));
    helper->SetAttribute("CdfFile", StringValue(s.cdf));
    helper->SetAttribute("ScheduleFile", StringValue(s.schedule));
    helper->SetAttribute("Start", TimeValue(Seconds(0)));
    helper->SetAttribute("Stop", TimeValue(Seconds(s.durationS)));
    helper->SetAttribute("MeasureFrom", TimeValue(s.WindowStart()));
    helper->SetAttribute("MeasureUntil", TimeValue(s.WindowEnd()));
    helper->SetAttribute("Tos", UintegerValue(tos));
    return helper;
}

} // namespace

std::string
FormatFigure(double value)
{
    if (std::isnan(value))
    {
        return "NA";
    }
    std::ostringstream os;
    os << std::setprecision(12) << value;
    return os.str();
}

std::vector<ddnn_flow>
MakeBackgroundFlows(const DatacenterScenario& scenario)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.rngRun);
    return MakeBackgroundHelper(scenario, 0x10)->MakeFlows(scenario.GetServerCount());
}

DatacenterResult
RunDatacenter(const DatacenterScenario& scenario,
              const std::string& priority,
              const std::vector<ddnn_flow>& flows,
              const std::string& outDir,
              const std::string& progressLabel,
              uint32_t runsAfter)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.rngRun);
    const uint8_t backgroundTos = scenario.TosOf(priority).second;
    const TrainingScenario training = scenario.TrainingPart(priority);
    Ptr<ServerTopology> network = CreateTopology(scenario);
    const std::vector<InstalledTraining> jobs = InstallTrainingJobs(training, network);
    std::vector<std::unique_ptr<TrainingRecorder>> recorders; // they hold trace connections
    for (const InstalledTraining& job : jobs)
    {
        recorders.push_back(std::make_unique<TrainingRecorder>(job.job));
    }

    Ptr<BackgroundHelper> background = MakeBackgroundHelper(scenario, backgroundTos);
    Ptr<BackgroundTenant> tenant = background->Install(network, flows);
    // Read when the senders write and the sinks start: set before the simulation runs.
    const TransportSettings& transport = scenario.transportSettings;
    tenant->SetAttribute("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
    tenant->SetAttribute("AcksInDataBand", BooleanValue(transport.backgroundAcksInDataBand));
    tenant->SetAttribute("CongestionControl",
                         StringValue(TransportSettings::TenantCongestionControl(
                             transport.backgroundCongestionControl)));
    UtilizationMeter meter(network,
                           MicroSeconds(std::llround(scenario.utilIntervalMs * 1e3)),
                           scenario.WindowStart(),
                           scenario.WindowEnd());

    if (Ptr<FabricTopology> fabric = DynamicCast<FabricTopology>(network))
    {
        for (const auto& [name, devices] : fabric->GetTiers())
        {
            meter.AddTier(name, devices);
        }
    }

    Simulator::Stop(Seconds(scenario.durationS));
    {
        ProgressMeter progress(Seconds(scenario.durationS),
                               scenario.progress,
                               ProgressMeter::Enabled(scenario.progress)
                                   ? CostPhases(scenario,
                                                scenario.flowRate * background->GetMeanFlowBytes()
                                                    * 8 / DataRate(scenario.dataRate).GetBitRate())
                                   : std::vector<ProgressMeter::Phase>(),
                               progressLabel,
                               runsAfter);
        Simulator::Run();
    }

    DatacenterResult result;
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        JobResult& job = result.jobs.emplace_back();
        job.training = recorders[k]->Summarize(jobs[k].idealRate,
                                               jobs[k].idealStepLatency,
                                               scenario.WindowStart(),
                                               scenario.WindowEnd());
        for (uint32_t r = 0; r < jobs[k].job->GetWorkerCount(); ++r)
        {
            job.trainingBytesReceived.push_back(jobs[k].job->GetWorker(r)->GetBytesReceived());
        }
    }
    result.flowsScheduled = flows.size();
    std::vector<ddnn_flow_result> measured;
    for (const auto& flow : tenant->GetFlows())
    {
        result.backgroundBytesReceived += flow.received;
        if (flow.started && flow.start >= scenario.WindowStart()
            && flow.start < scenario.WindowEnd())
        {
            // An unfinished flow has no end time: its FCT is not computed from one.
            const bool completed = flow.Completed();
            measured.push_back(
                ddnn_flow_result{flow.bytes,
                                 completed ? 1 : 0,
                                 completed ? (flow.end - flow.start).GetSeconds() : 0.0});
        }
    }
    ddnn_flow_stats(measured.data(), measured.size(), result.fct.data());
    result.minIterations = scenario.minIterations;
    result.minFlows = scenario.minFlows;
    result.windowS = (scenario.WindowEnd() - scenario.WindowStart()).GetSeconds();
    result.utilIntervalS = scenario.utilIntervalMs / 1e3;

    const double rate = DataRate(scenario.dataRate).GetBitRate();
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        JobResult& job = result.jobs[k];
        const uint32_t n = jobs[k].job->GetWorkerCount();
        const double modelBytes = jobs[k].job->GetModel()->GetTotalBytes();
        // eq. 5.2: a compute-bound job sends 2(1 - 1/N) x model bytes per compute time
        job.utilTrainingExpected
            = modelBytes * 2 * (1.0 - 1.0 / n) * 8 / (job.training.computeTimeS * rate);
        // Training over the uplinks of the job's servers (not every server trains).
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t i = 0; i < network->GetServerCount(); ++i)
            {
                if (network->GetServer(i) == jobs[k].job->GetWorker(r)->GetNode())
                {
                    job.utilTrainingMeasured
                        += meter.GetLinkUtilization(i, true, TenantKind::TRAINING) / n;
                }
            }
        }
    }
    // eq. 5.3: each server starts flowRate flows of the CDF's mean size per second
    double flowRate = scenario.flowRate;
    if (!scenario.schedule.empty())
    {
        double bytes = 0;
        for (const auto& flow : flows)
        {
            bytes += flow.bytes;
        }
        result.utilBackgroundExpected
            = bytes * 8 / (scenario.durationS * rate * scenario.GetServerCount());
    }
    else
    {
        result.utilBackgroundExpected = flowRate * background->GetMeanFlowBytes() * 8 / rate;
    }
    // Background over every server's uplink.
    result.utilBackgroundMeasured = meter.GetUplinkUtilization(TenantKind::BACKGROUND);
    for (const std::string& tier : meter.GetTiers())
    {
        result.tierUtilization.push_back(
            {tier,
             {meter.GetTierUtilization(tier, TenantKind::TRAINING),
              meter.GetTierUtilization(tier, TenantKind::BACKGROUND)}});
    }
    for (uint32_t i = 0; i < network->GetServerCount(); ++i)
    {
        result.linkUtilization.push_back(
            {meter.GetLinkUtilization(i, true, TenantKind::TRAINING),
             meter.GetLinkUtilization(i, true, TenantKind::BACKGROUND),
             meter.GetLinkUtilization(i, false, TenantKind::TRAINING),
             meter.GetLinkUtilization(i, false, TenantKind::BACKGROUND)});
    }

    if (!outDir.empty())
    {
        for (size_t k = 0; k < recorders.size(); ++k)
        {
            recorders[k]->WriteCsv(outDir, JobPrefix(k, "-"));
        }
        meter.WriteCsv(outDir + "/utilization.csv");
        AtomicFile file(outDir + "/flows.csv");
        std::ofstream& out = file.Out();
        out << "id,source,destination,size_bytes,start_s,end_s,fct_s,completed,in_window\n";
        for (const auto& flow : tenant->GetFlows())
        {
            if (!flow.started)
            {
                continue;
            }
            bool inWindow
                = flow.start >= scenario.WindowStart() && flow.start < scenario.WindowEnd();
            out << flow.id << "," << flow.src << "," << flow.dst << "," << flow.bytes << ","
                << flow.start.GetSeconds() << ",";
            if (flow.Completed())
            {
                out << flow.end.GetSeconds() << "," << (flow.end - flow.start).GetSeconds();
            }
            else
            {
                out << ",";
            }
            out << "," << (flow.Completed() ? "true" : "false") << ","
                << (inWindow ? "true" : "false") << "\n";
        }
        file.Commit();
    }
    Simulator::Destroy();
    return result;
}

std::vector<ProgressMeter::Phase>
CostPhases(const DatacenterScenario& scenario, double backgroundLoadPerServer)
{
    const TrainingScenario training = scenario.TrainingPart(scenario.trainingPriority);
    const double servers = scenario.GetServerCount();
    std::vector<std::pair<Time, double>> steps{
        {Seconds(0), 0.01 * servers + backgroundLoadPerServer * servers}};
    for (const TrainingJobParameters& job : training.Jobs())
    {
        Ptr<DnnModel> model = CreateObject<DnnModel>();
        model->SetAttribute("ProfileFile", StringValue(job.profile));
        model->SetAttribute("FusionBufferBytes", UintegerValue(job.fusionBytes));
        model->Load();
        model->SetComputeTime(training.ComputeTime(job, model->GetTotalBytes()));
        Time forward;
        for (uint32_t l = 0; l < model->GetLayerCount(); ++l)
        {
            forward += model->GetForwardTime(l);
        }
        const uint32_t workers = training.WorkersOf(job);
        const double load = model->GetTotalBytes() * 2 * (1.0 - 1.0 / workers) * 8
                            / (IdealIterationTime(training, job).GetSeconds()
                               * DataRate(scenario.dataRate).GetBitRate());
        steps.emplace_back(Seconds(job.startS) + forward, std::min(load, 1.0) * workers);
    }
    std::sort(steps.begin(), steps.end());
    std::vector<ProgressMeter::Phase> phases;
    double cost = 0;
    for (const auto& [start, added] : steps)
    {
        cost += added;
        phases.push_back({start, cost});
    }
    return phases;
}

std::string
JobPrefix(size_t job, const std::string& separator)
{
    return job == 0 ? "" : "job" + std::to_string(job + 1) + separator;
}

std::vector<std::pair<std::string, std::string>>
SummaryRows(const DatacenterResult& r)
{
    std::vector<std::pair<std::string, std::string>> rows;
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const TrainingSummary& t = r.jobs[k].training;
        const std::string job = JobPrefix(k, "_");
        for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
                 {"workers", std::to_string(t.workers)},
                 {"iterations_completed", std::to_string(t.iterationsCompleted)},
                 {"iterations_measured", std::to_string(t.iterationsMeasured)},
                 {"compute_time_s", FormatFigure(t.computeTimeS)},
                 {"iteration_time_mean_s", FormatFigure(t.iterationTimeMeanS)},
                 {"iteration_time_sd_s", FormatFigure(t.iterationTimeSdS)},
                 {"iteration_time_min_s", FormatFigure(t.iterationTimeMinS)},
                 {"iteration_time_max_s", FormatFigure(t.iterationTimeMaxS)},
                 {"iterations_few_samples",
                  t.iterationsMeasured < r.minIterations || t.iterationsMeasured == 0 ? "true"
                                                                                      : "false"},
                 {"allreduce_time_mean_s", FormatFigure(t.allreduceTimeMeanS)},
                 {"allreduce_time_sd_s", FormatFigure(t.allreduceTimeSdS)},
                 {"allreduces_measured", std::to_string(t.allreducesMeasured)},
                 {"bytes_per_worker_per_iteration", FormatFigure(t.bytesPerWorkerPerIteration)},
                 {"expected_bytes_per_worker_per_iteration",
                  FormatFigure(t.expectedBytesPerWorkerPerIteration)},
                 {"ideal_allreduce_time_s", FormatFigure(t.idealAllreduceTimeS)}})
        {
            rows.emplace_back(job + key, value);
        }
    }
    rows.emplace_back("flows_scheduled", std::to_string(r.flowsScheduled));
    for (int c = 0; c < DDNN_FLOW_CLASSES; ++c)
    {
        std::string name = ddnn_flow_class_name(static_cast<ddnn_flow_class>(c));
        const ddnn_flow_class_stats& s = r.fct[c];
        rows.emplace_back("fct_" + name + "_mean_s", FormatFigure(s.mean_s));
        rows.emplace_back("fct_" + name + "_p50_s", FormatFigure(s.p50_s));
        rows.emplace_back("fct_" + name + "_p99_s", FormatFigure(s.p99_s));
        rows.emplace_back("flows_" + name + "_started", std::to_string(s.started));
        rows.emplace_back("flows_" + name + "_completed", std::to_string(s.completed));
        rows.emplace_back("fct_" + name + "_sd_s", FormatFigure(s.sd_s));
        rows.emplace_back("flows_" + name + "_few_samples",
                          s.completed < r.minFlows || s.completed == 0 ? "true" : "false");
    }
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const std::string job = JobPrefix(k, "_");
        rows.emplace_back(job + "util_training_expected",
                          FormatFigure(r.jobs[k].utilTrainingExpected));
        rows.emplace_back(job + "util_training_measured",
                          FormatFigure(r.jobs[k].utilTrainingMeasured));
    }
    rows.emplace_back("util_background_expected", FormatFigure(r.utilBackgroundExpected));
    rows.emplace_back("util_background_measured", FormatFigure(r.utilBackgroundMeasured));
    for (const auto& [tier, utilization] : r.tierUtilization)
    {
        rows.emplace_back("util_" + tier + "_training_measured", FormatFigure(utilization[0]));
        rows.emplace_back("util_" + tier + "_background_measured", FormatFigure(utilization[1]));
    }
    return rows;
}

} // namespace ns3
