/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "datacenter-run.h"

#include "run-intervals.h"
#include "scaled-replica.h"

#include "distributed-run.h"

#include "ns3/atomic-file.h"
#include "ns3/background-helper.h"
#include "ns3/egress-queue.h"
#include "ns3/queue-meter.h"
#include "ns3/single-tor-helper.h"
#include "ns3/utilization-meter.h"
#include "program-main.h"
#include "progress-meter.h"
#include "scenario-attributes.h"
#include "scenario-file.h"

#include "ddnn-scenario.h"
#include "ns3/boolean.h"
#include "ns3/data-path.h"
#include "ns3/dnn-model.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-topology.h"
#include "ns3/local-node.h"
#include "ns3/node-list.h"
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
#include <limits>
#include <memory>
#include <sstream>

namespace ns3
{

namespace
{

/** A distributed run: ranks.csv, each rank's nodes and the events it executed (how evenly the
 * partition spread the work). */
void
WriteRanks(const std::string& outDir)
{
    uint32_t nodes = 0;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        nodes += IsLocalNode(*node) ? 1 : 0;
    }
    const std::vector<std::string> ranks = DistributedRun::Gather(
        std::to_string(nodes) + "," + std::to_string(Simulator::GetEventCount()));
    if (outDir.empty() || DistributedRun::Rank() != 0)
    {
        return;
    }
    AtomicFile file(outDir + "/ranks.csv");
    file.Out() << "rank,nodes,events\n";
    for (size_t r = 0; r < ranks.size(); ++r)
    {
        file.Out() << r << "," << ranks[r] << "\n";
    }
    file.Commit();
}

} // namespace

Ptr<BackgroundHelper>
CreateBackgroundHelper(const Scenario& s)
{
    Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
    SetScenarioAttributes(s, 0, helper); // the pattern's name, then its own attributes
    SetScenarioAttributes(s,
                          0,
                          BackgroundPattern::Lookup(s.values.background_pattern),
                          [&](const std::string& name, const AttributeValue& value) {
                              helper->SetPatternAttribute(name, value);
                          });
    if (s.values.scale < 1) // web search only (CheckScalable)
    {
        helper->SetPatternAttribute("FlowRate", DoubleValue(ScaledFlowRate(s)));
    }
    helper->SetAttribute("Start", TimeValue(Seconds(0)));
    helper->SetAttribute("Stop", TimeValue(Seconds(s.values.duration_s)));
    helper->SetAttribute("MeasureFrom", TimeValue(s.WindowStart()));
    helper->SetAttribute("MeasureUntil", TimeValue(s.WindowEnd()));
    helper->SetAttribute("Priority", StringValue(s.TenantPriorities().second));
    return helper;
}

void
ConfigureBackgroundTenant(const Scenario& scenario, Ptr<BackgroundTenant> tenant)
{
    // Read when the senders write and the sinks start: set before the simulation runs.
    SetScenarioAttributes(scenario, 0, tenant);
    const TransportSettings transport = scenario.Transport();
    tenant->SetAttribute("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
    tenant->SetAttribute("AcksInDataBand", BooleanValue(transport.backgroundAcksInDataBand));
    tenant->SetAttribute("SlackTags", BooleanValue(scenario.ReadsSlackTags()));
    tenant->SetAttribute("CongestionControl",
                         StringValue(TransportSettings::TenantCongestionControl(
                             transport.backgroundCongestionControl)));
    if (DistributedRun::Enabled())
    {
        // A sink knows its flow by the source port, without asking the sender's process; on
        // 1 rank too, so that any number of ranks gives the same run.
        tenant->SetAttribute("SourcePorts", EnumValue(BackgroundTenant::FROM_FLOW));
    }
}

double
SamplesPerSecond(uint32_t batchSize, const TrainingSummary& training)
{
    return batchSize > 0
               ? static_cast<double>(batchSize) * training.workers / training.iterationTimeMeanS
               : std::numeric_limits<double>::quiet_NaN();
}

std::string
FormatFigure(double value, int digits)
{
    if (std::isnan(value))
    {
        return "NA";
    }
    std::ostringstream os;
    os << std::setprecision(digits) << value;
    return os.str();
}

std::vector<ddnn_flow>
MakeBackgroundFlows(const Scenario& scenario)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.values.seed);
    RngSeedManager::SetRun(scenario.values.rng_run);
    return CreateBackgroundHelper(scenario)->MakeFlows(scenario.GetServerCount());
}

DatacenterResult
RunDatacenter(const Scenario& scenario,
              const std::vector<ddnn_flow>& flows,
              const std::string& outDir,
              const std::string& progressLabel,
              uint32_t runsAfter)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.values.seed);
    RngSeedManager::SetRun(scenario.values.rng_run);
    Ptr<ServerTopology> network = CreateTopology(scenario);
    const std::vector<InstalledTraining> jobs
        = InstallTrainingJobs(scenario.TrainingPart(), network);
    std::vector<std::unique_ptr<TrainingRecorder>> recorders; // they hold trace connections
    for (const InstalledTraining& job : jobs)
    {
        recorders.push_back(std::make_unique<TrainingRecorder>(job.job));
    }

    Ptr<BackgroundHelper> background = CreateBackgroundHelper(scenario);
    Ptr<BackgroundTenant> tenant = background->Install(network, flows);
    ConfigureBackgroundTenant(scenario, tenant);
    UtilizationMeter meter(network,
                           MicroSeconds(std::llround(scenario.values.util_interval_ms * 1e3)),
                           scenario.WindowStart(),
                           scenario.WindowEnd());

    QueueMeter queues(network, scenario.WindowStart(), scenario.WindowEnd());
    if (Ptr<FabricTopology> fabric = DynamicCast<FabricTopology>(network))
    {
        for (const auto& [name, devices] : fabric->GetTiers())
        {
            meter.AddTier(name, devices);
        }
    }

    Simulator::Stop(Seconds(scenario.values.duration_s));
    {
        ProgressMeter progress(
            Seconds(scenario.values.duration_s),
            scenario.progress,
            ProgressMeter::Enabled(scenario.progress)
                ? CostPhases(scenario,
                             background->GetOfferedBytesPerSecond(scenario.GetServerCount()) * 8
                                 / scenario.LinkRate().GetBitRate())
                : std::vector<ProgressMeter::Phase>(),
            progressLabel,
            runsAfter);
        DistributedRun::SetSimulating(true);
        Simulator::Run();
    }
    std::vector<Ptr<TrainingJob>> trainingJobs;
    std::vector<TrainingRecorder*> trainingRecorders;
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        trainingJobs.push_back(jobs[k].job);
        trainingRecorders.push_back(recorders[k].get());
    }
    MergeRanks(trainingJobs, trainingRecorders, [&](const auto& merge) {
        merge(tenant->GetRankState(),
              [&](const std::string& state) { tenant->MergeRankState(state); });
        merge(meter.GetRankState(), [&](const std::string& state) { meter.MergeRankState(state); });
        merge(queues.GetRankState(),
              [&](const std::string& state) { queues.MergeRankState(state); });
    });

    DatacenterResult result;
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        JobResult& job = result.jobs.emplace_back();
        job.training = recorders[k]->Summarize(jobs[k].idealRate,
                                               jobs[k].idealStepLatency,
                                               scenario.WindowStart(),
                                               scenario.WindowEnd());
        job.batchSize = scenario.Job(k).batch_size;
        for (uint32_t r = 0; r < jobs[k].job->GetWorkerCount(); ++r)
        {
            job.trainingBytesReceived.push_back(recorders[k]->GetBytesReceived(r));
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
            result.measuredFlows.emplace_back(flow.id, measured.back());
        }
    }
    ddnn_flow_stats(measured.data(), measured.size(), result.fct.data());
    for (auto [side, bands] : {std::pair{QueueMeter::SERVERS, &result.serverBands},
                               std::pair{QueueMeter::SWITCHES, &result.switchBands}})
    {
        bands->classified = queues.IsClassified(side);
        for (uint32_t b = 0; b < queues.GetBands(side); ++b)
        {
            bands->drops.push_back(queues.GetDrops(side, b));
            bands->maxBacklogBytes.push_back(queues.GetMaxBacklogBytes(side, b));
            bands->dropTimesNs.push_back(queues.GetDropTimes(side, b));
            if (side == QueueMeter::SERVERS)
            {
                result.retransmissions.push_back(queues.GetRetransmissions(b));
                result.retransmissionTimesNs.push_back(queues.GetRetransmissionTimes(b));
                result.timeoutTimesNs.push_back(queues.GetTimeoutTimes(b));
            }
        }
    }
    // Which tenant's packets each band of the servers carries (a job's band may be its own).
    result.bandTenants.assign(result.retransmissions.size(), "");
    auto tenantIn = [&result, &queues](uint8_t tos, TenantKind::Tenant kind) {
        const std::string tenant = kind == TenantKind::TRAINING ? "training" : "background";
        const int band = queues.GetServerBandOf(tos, kind);
        if (band >= 0 && static_cast<size_t>(band) < result.bandTenants.size()
            && result.bandTenants[band].find(tenant) == std::string::npos)
        {
            std::string& names = result.bandTenants[band];
            names += (names.empty() ? "" : ", ") + tenant;
        }
    };
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        tenantIn(scenario.JobTos(k), TenantKind::TRAINING);
    }
    tenantIn(scenario.BackgroundTos(), TenantKind::BACKGROUND);
    result.minRtoMs = scenario.Transport().minRtoMs;
    result.linkLosses = scenario.values.loss_rate > 0;
    result.scale = scenario.values.scale;
    result.confidenceLevel = scenario.values.confidence;
    result.minIterations = scenario.values.min_iterations;
    result.minFlows = scenario.values.min_flows;
    result.windowS = (scenario.WindowEnd() - scenario.WindowStart()).GetSeconds();
    result.utilIntervalS = scenario.values.util_interval_ms / 1e3;

    const double rate = scenario.LinkRate().GetBitRate();
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        JobResult& job = result.jobs[k];
        const uint32_t n = jobs[k].job->GetWorkerCount();
        const double modelBytes = jobs[k].job->GetModel()->GetTotalBytes();
        // eq. 5.2: a compute-bound job sends 2(1 - 1/N) x model bytes per compute time (the
        // ring's load, which defines R_cp_to_nw whatever the collective: reports key on it)
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
    // eq. 5.3: what the pattern offers (web search: flowRate flows of the CDF's mean size per
    // second and server)
    result.utilBackgroundExpected
        = background->GetOfferedBytesPerSecond(scenario.GetServerCount()) * 8 / rate;
    // Background over every server's uplink.
    result.utilBackgroundMeasured = meter.GetUplinkUtilization(TenantKind::BACKGROUND);
    result.uplinkPackets = {meter.GetUplinkPackets(TenantKind::TRAINING),
                            meter.GetUplinkPackets(TenantKind::BACKGROUND)};
    result.uplinkTrainingSeries = meter.GetUplinkSeries(TenantKind::TRAINING);
    result.uplinkBackgroundSeries = meter.GetUplinkSeries(TenantKind::BACKGROUND);
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

    if (!outDir.empty() && DistributedRun::Rank() == 0)
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
    if (DistributedRun::Enabled())
    {
        WriteRanks(outDir);
    }
    Simulator::Destroy();
    return result;
}

std::vector<ProgressMeter::Phase>
CostPhases(const Scenario& scenario, double backgroundLoadPerServer)
{
    const Scenario training = scenario.TrainingPart();
    const double servers = scenario.GetServerCount();
    std::vector<std::pair<Time, double>> steps{
        {Seconds(0), 0.01 * servers + backgroundLoadPerServer * servers}};
    for (uint32_t k = 0; k < training.JobCount(); ++k)
    {
        Ptr<DnnModel> model = LoadJobModel(training, k);
        Time forward;
        for (uint32_t l = 0; l < model->GetLayerCount(); ++l)
        {
            forward += model->GetForwardTime(l);
        }
        const uint32_t workers = training.WorkersOf(k);
        const double load
            = model->GetTotalBytes() * 2 * (1.0 - 1.0 / workers) * 8
              / (IdealIterationTime(training, k).GetSeconds() * scenario.LinkRate().GetBitRate());
        steps.emplace_back(Seconds(training.Job(k).start_s) + forward,
                           std::min(load, 1.0) * workers);
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
    if (r.scale != 1) // a replica's figures say so (the summaries of full-scale runs as they were)
    {
        rows.emplace_back("scale", FormatFigure(r.scale));
    }
    rows.emplace_back("confidence_level", FormatFigure(r.confidenceLevel));
    for (size_t k = 0; k < r.jobs.size(); ++k)
    {
        const TrainingSummary& t = r.jobs[k].training;
        const std::string job = JobPrefix(k, "_");
        const ddnn_interval period = IterationInterval(t, r.confidenceLevel);
        const ddnn_interval backward = PeriodsInterval(t.backwardPeriodsS, r.confidenceLevel);
        for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
                 {"workers", std::to_string(t.workers)},
                 {"model_bytes", std::to_string(t.modelBytes)},
                 {"iterations_completed", std::to_string(t.iterationsCompleted)},
                 {"iterations_measured", std::to_string(t.iterationsMeasured)},
                 {"compute_time_s", FormatFigure(t.computeTimeS)},
                 {"iteration_time_mean_s", FormatFigure(t.iterationTimeMeanS)},
                 {"iteration_time_sd_s", FormatFigure(t.iterationTimeSdS)},
                 {"iteration_time_min_s", FormatFigure(t.iterationTimeMinS)},
                 {"iteration_time_max_s", FormatFigure(t.iterationTimeMaxS)},
                 {"iteration_time_median_s", FormatFigure(IterationMedian(t))},
                 {"iteration_time_ci_low_s", FormatFigure(period.low)},
                 {"iteration_time_ci_high_s", FormatFigure(period.high)},
                 {"iteration_time_batches", std::to_string(period.batches)},
                 {"iteration_backward_clock_mean_s", FormatFigure(backward.estimate)},
                 {"iteration_backward_clock_sd_s", FormatFigure(t.backwardPeriodSdS)},
                 {"iteration_backward_clock_ci_low_s", FormatFigure(backward.low)},
                 {"iteration_backward_clock_ci_high_s", FormatFigure(backward.high)},
                 {"iterations_measured_backward_clock", std::to_string(t.backwardPeriodsS.size())},
                 {"iterations_few_samples",
                  t.iterationsMeasured < r.minIterations || t.iterationsMeasured == 0 ? "true"
                                                                                      : "false"},
                 {"allreduce_time_mean_s", FormatFigure(t.allreduceTimeMeanS)},
                 {"allreduce_time_sd_s", FormatFigure(t.allreduceTimeSdS)},
                 {"allreduces_measured", std::to_string(t.allreducesMeasured)},
                 {"samples_per_second", FormatFigure(SamplesPerSecond(r.jobs[k].batchSize, t))},
                 {"aggregation_time_mean_s", FormatFigure(t.aggregationTimeMeanS)},
                 {"aggregation_time_sd_s", FormatFigure(t.aggregationTimeSdS)},
                 {"distribution_time_mean_s", FormatFigure(t.distributionTimeMeanS)},
                 {"distribution_time_sd_s", FormatFigure(t.distributionTimeSdS)},
                 {"phases_measured", std::to_string(t.phasesMeasured)},
                 {"bytes_per_worker_per_iteration", FormatFigure(t.bytesPerWorkerPerIteration)},
                 {"expected_bytes_per_worker_per_iteration",
                  FormatFigure(t.expectedBytesPerWorkerPerIteration)},
                 {"ideal_allreduce_time_s", FormatFigure(t.idealAllreduceTimeS)},
                 {"collective", t.collective},
                 {"collective_fell_back", t.fellBack ? "true" : "false"},
                 {"aggregation_retransmissions", FormatFigure(t.aggregationRetransmissions)},
                 {"aggregation_max_slots_in_use", FormatFigure(t.aggregationMaxSlotsInUse)},
                 {"aggregation_slot_memory_bytes", FormatFigure(t.aggregationSlotMemoryBytes)},
                 {"sync_bytes", FormatFigure(t.syncBytes)}})
        {
            rows.emplace_back(job + key, value);
            // A Chakra trace's own expected bytes beside the measured ones, in trace runs only
            // (the summary of every other run stays as it was).
            if (key == "expected_bytes_per_worker_per_iteration"
                && !std::isnan(t.traceExpectedBytesPerWorkerPerIteration))
            {
                rows.emplace_back(job + "trace_expected_bytes_per_worker_per_iteration",
                                  FormatFigure(t.traceExpectedBytesPerWorkerPerIteration));
            }
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
        for (const auto& [statistic, label] :
             {std::pair{DDNN_STATISTIC_MEAN, "_mean"}, std::pair{DDNN_STATISTIC_P99, "_p99"}})
        {
            const ddnn_interval fct = FctInterval(r, static_cast<ddnn_flow_class>(c), statistic);
            rows.emplace_back("fct_" + name + label + "_ci_low_s", FormatFigure(fct.low));
            rows.emplace_back("fct_" + name + label + "_ci_high_s", FormatFigure(fct.high));
        }
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
    rows.emplace_back("packets_uplinks_training", std::to_string(r.uplinkPackets[0]));
    rows.emplace_back("packets_uplinks_background", std::to_string(r.uplinkPackets[1]));
    for (const auto& [tier, utilization] : r.tierUtilization)
    {
        rows.emplace_back("util_" + tier + "_training_measured", FormatFigure(utilization[0]));
        rows.emplace_back("util_" + tier + "_background_measured", FormatFigure(utilization[1]));
    }
    // A count of a disc that has no map from priority to band is unknown, not 0.
    const auto count = [](bool known, uint64_t value) {
        return known ? std::to_string(value) : std::string("NA");
    };
    for (const auto& [side, bands] :
         {std::pair{"servers", &r.serverBands}, std::pair{"switches", &r.switchBands}})
    {
        for (size_t b = 0; b < bands->drops.size(); ++b)
        {
            const std::string band = std::string(side) + "_band" + std::to_string(b);
            rows.emplace_back("drops_" + band, count(bands->classified, bands->drops[b]));
            rows.emplace_back("max_queue_bytes_" + band, std::to_string(bands->maxBacklogBytes[b]));
        }
    }
    for (size_t b = 0; b < r.retransmissions.size(); ++b)
    {
        rows.emplace_back("retransmissions_servers_band" + std::to_string(b),
                          count(r.serverBands.classified, r.retransmissions[b]));
        rows.emplace_back("timeouts_servers_band" + std::to_string(b),
                          count(r.serverBands.classified, r.timeoutTimesNs[b].size()));
    }
    return rows;
}

} // namespace ns3
