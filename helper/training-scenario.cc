/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-scenario.h"

#include "progress-meter.h"
#include "random-variable-text.h"
#include "scenario-file.h"
#include "single-tor-helper.h"
#include "training-helper.h"

#include "ns3/fat-tree-helper.h"
#include "ns3/job-placement.h"
#include "ns3/leaf-spine-helper.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-exception.h"
#include "ns3/ddnn-profile.h"
#include "ns3/ddnn-scenario-params.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-partition-transport.h"
#include "ns3/uinteger.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

TrainingScenario::TrainingScenario()
{
    // One set of defaults for files and command lines: the core's parameter table.
    ddnn_scenario defaults;
    ddnn_scenario_defaults(&defaults);
    ApplyCoreScenario(defaults, "", *this);
}

void
TrainingScenario::AddArguments(CommandLine& cmd)
{
    // The scenario's own parameters come from the core's table (ParseArguments).
    cmd.AddValue("outDir", "folder for the CSV files", outDir);
    cmd.AddValue(
        "progress", "progress on stderr: auto (when a terminal), always or never", progress);
}

namespace
{

/** The ranks a job's stragglers list names ("0,3"), each below `workers` and once. */
std::set<uint32_t>
StragglerRanks(const TrainingJobParameters& job, uint32_t workers, const std::string& argument)
{
    std::set<uint32_t> ranks;
    std::stringstream list(job.stragglers);
    std::string item;
    while (!job.stragglers.empty() && std::getline(list, item, ','))
    {
        char* end = nullptr;
        const unsigned long rank = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || !std::isdigit(static_cast<unsigned char>(item[0]))
            || rank >= workers || !ranks.insert(rank).second)
        {
            throw DdnnError(argument + ": expected distinct worker ranks below "
                            + std::to_string(workers) + " like 0,3, got '" + job.stragglers + "'");
        }
    }
    return ranks;
}

} // namespace

std::string
JobArgument(size_t job, const std::string& flag)
{
    if (job == 0)
    {
        return "--" + flag;
    }
    return "<training> number " + std::to_string(job + 1) + ", attribute '"
           + ddnn_scenario_param_by_flag(flag.c_str())->attribute + "'";
}

std::vector<TrainingJobParameters>
TrainingScenario::Jobs() const
{
    std::vector<TrainingJobParameters> jobs{*this};
    jobs.insert(jobs.end(), moreJobs.begin(), moreJobs.end());
    return jobs;
}

std::vector<TrainingJobParameters*>
TrainingScenario::JobPointers()
{
    std::vector<TrainingJobParameters*> jobs{this};
    for (TrainingJobParameters& job : moreJobs)
    {
        jobs.push_back(&job);
    }
    return jobs;
}

uint32_t
TrainingScenario::WorkersOf(const TrainingJobParameters& job) const
{
    return job.jobWorkers > 0 ? job.jobWorkers : workers;
}

void
TrainingScenario::Validate() const
{
    auto fail = [](const std::string& argument, const std::string& what) {
        throw DdnnError("--" + argument + ": " + what);
    };
    CheckRanges(ToCoreScenario(*this)); // each value within its parameter's range
    const std::vector<TrainingJobParameters> jobs = Jobs();
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        const TrainingJobParameters& job = jobs[k];
        auto failJob = [&](const std::string& flag, const std::string& what) {
            throw DdnnError(JobArgument(k, flag) + ": " + what);
        };
        if (!(job.computeMs > 0) && !(job.rcp > 0))
        {
            failJob("computeMs", "expected a positive compute time in ms (or give --rcp)");
        }
        if (job.iterations == 0 && !(job.stopS > 0))
        {
            failJob("iterations", "give a number of iterations or a positive --stopS");
        }
        const uint32_t n = WorkersOf(job);
        if (n < 2)
        {
            failJob("jobWorkers", "expected 0 (the topology's workers) or at least 2, got 1");
        }
        const bool dedicated = job.parameterServerHosts == "dedicated";
        if (dedicated && job.collective != "parameter-server")
        {
            failJob("parameterServerHosts",
                    "dedicated hosts serve the parameter-server collective, not " + job.collective);
        }
        if (dedicated && n + job.parameterServers > GetServerCount())
        {
            failJob("parameterServers",
                    std::to_string(n) + " workers and " + std::to_string(job.parameterServers)
                        + " dedicated parameter servers do not fit the " + topologyKind + "'s "
                        + std::to_string(GetServerCount()) + " servers");
        }
        if (!dedicated && job.parameterServers > n)
        {
            failJob("parameterServers",
                    "expected at most the job's " + std::to_string(n)
                        + " workers as parameter servers, got "
                        + std::to_string(job.parameterServers));
        }
        StragglerRanks(job, n, JobArgument(k, "stragglers")); // throws on a bad list
        if (!job.jitter.empty())
        {
            RandomVariableFromText(job.jitter, JobArgument(k, "jitter"));
        }
        if (n > GetServerCount())
        {
            failJob(job.jobWorkers > 0 ? "jobWorkers" : "workers",
                    std::to_string(n) + " workers do not fit the " + topologyKind + "'s "
                        + std::to_string(GetServerCount()) + " servers");
        }
    }
    ProgressMeter::Enabled(progress); // throws on an unknown mode
    DataRateValue rate;
    if (!rate.DeserializeFromString(dataRate, MakeDataRateChecker())
        || rate.Get().GetBitRate() == 0)
    {
        fail("dataRate", "expected a rate such as 10Gbps, got '" + dataRate + "'");
    }
    if (!rateCap.empty()
        && (!rate.DeserializeFromString(rateCap, MakeDataRateChecker())
            || rate.Get().GetBitRate() == 0))
    {
        fail("rateCap",
             "expected a rate such as 1Gbps (or nothing for no cap), got '" + rateCap + "'");
    }
    if (topologyKind != "single-tor")
    {
        // A named array: gcc 14 takes pairs in a braced list for dangling references.
        const std::pair<const char*, bool> impairments[]
            = {{"lossRate", lossRate > 0},
               {"addedDelayUs", addedDelayUs > 0},
               {"rateCap", !rateCap.empty()},
               {"impairedServers", !impairedServers.empty()}};
        for (const auto& [flag, set] : impairments)
        {
            if (set)
            {
                fail(flag,
                     "the impairments apply to --topology=single-tor only, not " + topologyKind);
            }
        }
        if (GetServerCount() > 1024)
        {
            fail(topologyKind == "fat-tree" ? "fatTreeK" : "leaves",
                 "the " + topologyKind + " would have " + std::to_string(GetServerCount())
                     + " servers, at most 1024");
        }
        if (topologyKind == "fat-tree" && fatTreeK % 2 != 0)
        {
            fail("fatTreeK", "expected an even radix, got " + std::to_string(fatTreeK));
        }
        if (!fabricDataRate.empty()
            && (!rate.DeserializeFromString(fabricDataRate, MakeDataRateChecker())
                || rate.Get().GetBitRate() == 0))
        {
            fail("fabricDataRate", "expected a rate such as 40Gbps, got '" + fabricDataRate + "'");
        }
    }
}

Time
TrainingScenario::ComputeTime(uint64_t modelBytes) const
{
    return ComputeTime(*this, modelBytes);
}

Time
TrainingScenario::ComputeTime(const TrainingJobParameters& job, uint64_t modelBytes) const
{
    if (job.computeMs > 0)
    {
        return NanoSeconds(std::llround(job.computeMs * 1e6));
    }
    double networkS
        = modelBytes * 2.0 * (1.0 - 1.0 / WorkersOf(job)) * 8 / DataRate(dataRate).GetBitRate();
    // The profile's own bound on compute: far inside ns-3's signed 64-bit nanoseconds.
    const double ns = job.rcp * networkS * 1e9;
    if (!(ns <= static_cast<double>(DDNN_PROFILE_MAX_COMPUTE_NS)))
    {
        std::ostringstream os;
        os << "--rcp: " << job.rcp << " gives a compute time of " << ns / 1e9
           << " s per iteration at --dataRate=" << dataRate << ", more than 10^6 s";
        throw DdnnError(os.str());
    }
    return NanoSeconds(std::llround(ns));
}

Time
IdealStepLatency(DataRate rate, Time delay, const TransportSettings& transport, uint32_t links)
{
    return static_cast<int64_t>(links) * delay
           + static_cast<int64_t>(links - 1)
                 * rate.CalculateBytesTxTime(transport.WirePacketBytes());
}

uint32_t
TrainingScenario::GetServerCount() const
{
    if (topologyKind == "leaf-spine")
    {
        return leaves * serversPerLeaf;
    }
    if (topologyKind == "fat-tree")
    {
        return fatTreeK * fatTreeK * fatTreeK / 4;
    }
    return workers;
}

uint32_t
TrainingScenario::GetPathLinks() const
{
    if (topologyKind == "leaf-spine")
    {
        return leaves > 1 ? 4 : 2;
    }
    return topologyKind == "fat-tree" ? 6 : 2;
}

std::string
TransportTypeOf(const std::string& transport)
{
    return transport == "tcp" ? "ns3::TcpPartitionTransport" : "ns3::IdealPartitionTransport";
}

Ptr<SingleTorHelper>
CreateNetwork(const TrainingScenario& scenario, uint32_t servers)
{
    scenario.transportSettings.Apply();
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    network->SetAttribute("DataRate", DataRateValue(DataRate(scenario.dataRate)));
    network->SetAttribute("Delay", TimeValue(NanoSeconds(std::llround(scenario.delayUs * 1e3))));
    network->SetAttribute("LossRate", DoubleValue(scenario.lossRate));
    network->SetAttribute("AddedDelay",
                          TimeValue(NanoSeconds(std::llround(scenario.addedDelayUs * 1e3))));
    network->SetAttribute(
        "RateCap", DataRateValue(DataRate(scenario.rateCap.empty() ? "0bps" : scenario.rateCap)));
    network->SetAttribute("ImpairedServers", StringValue(scenario.impairedServers));
    network->SetAttribute("QueueDisc", EnumValue(EgressQueue::FromScenario(scenario.queueDisc)));
    network->SetAttribute("EcnThresholdPackets", UintegerValue(scenario.ecnThresholdPackets));
    network->Create(servers);
    return network;
}

Ptr<ServerTopology>
CreateTopology(const TrainingScenario& scenario)
{
    if (scenario.topologyKind == "single-tor")
    {
        return CreateNetwork(scenario, scenario.workers);
    }
    scenario.transportSettings.Apply();
    Ptr<FabricTopology> fabric;
    if (scenario.topologyKind == "leaf-spine")
    {
        fabric = CreateObject<LeafSpineHelper>();
        fabric->SetAttribute("Leaves", UintegerValue(scenario.leaves));
        fabric->SetAttribute("ServersPerLeaf", UintegerValue(scenario.serversPerLeaf));
        fabric->SetAttribute("Spines", UintegerValue(scenario.spines));
    }
    else
    {
        fabric = CreateObject<FatTreeHelper>();
        fabric->SetAttribute("K", UintegerValue(scenario.fatTreeK));
    }
    const Time delay = NanoSeconds(std::llround(scenario.delayUs * 1e3));
    fabric->SetAttribute("ServerDataRate", DataRateValue(DataRate(scenario.dataRate)));
    fabric->SetAttribute(
        "FabricDataRate",
        DataRateValue(DataRate(scenario.fabricDataRate.empty() ? scenario.dataRate
                                                               : scenario.fabricDataRate)));
    fabric->SetAttribute("ServerDelay", TimeValue(delay));
    fabric->SetAttribute("FabricDelay", TimeValue(delay));
    fabric->SetAttribute("QueueDisc", EnumValue(EgressQueue::FromScenario(scenario.queueDisc)));
    fabric->SetAttribute("EcnThresholdPackets", UintegerValue(scenario.ecnThresholdPackets));
    if (auto leafSpine = DynamicCast<LeafSpineHelper>(fabric))
    {
        leafSpine->Create();
    }
    else
    {
        DynamicCast<FatTreeHelper>(fabric)->Create();
    }
    return fabric;
}

namespace
{

/** TcpPartitionTransport's Port as configured (its default, or Config::SetDefault's). */
uint32_t
BaseTrainingPort()
{
    TypeId::AttributeInformation info;
    TcpPartitionTransport::GetTypeId().LookupAttributeByName("Port", &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

/** Job `index` of the scenario (parameters `job`) on its servers; see InstallTrainingJobs. */
InstalledTraining
InstallJob(const TrainingScenario& scenario,
           const TrainingJobParameters& job,
           uint32_t index,
           Ptr<ServerTopology> network,
           std::set<uint32_t>& taken)
{
    // The model is read once: its bytes size the compute time from --rcp.
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(job.profile));
    model->SetAttribute("FusionBufferBytes", UintegerValue(job.fusionBytes));
    model->Load();
    model->SetComputeTime(scenario.ComputeTime(job, model->GetTotalBytes()));

    TrainingHelper training;
    training.SetAttribute(
        "QueuePolicy", EnumValue(job.queue == "fifo" ? TrainingJob::FIFO : TrainingJob::PRIORITY));
    training.SetAttribute("Collective", StringValue(job.collective));
    training.SetAttribute("ParameterServers", UintegerValue(job.parameterServers));
    if (job.highPriorityBuffers > 0)
    {
        Ptr<FirstBuffersPriority> first = CreateObject<FirstBuffersPriority>();
        first->SetAttribute("Count", UintegerValue(job.highPriorityBuffers));
        first->SetAttribute("Tos", UintegerValue(0x10));
        training.SetAttribute("BufferPriority", PointerValue(first));
    }
    training.SetAttribute("Barrier", BooleanValue(job.barrier));
    training.SetAttribute("Iterations", UintegerValue(job.iterations));
    training.SetAttribute("StopTime", TimeValue(Seconds(job.stopS)));
    training.SetAttribute("StallTimeout",
                          TimeValue(NanoSeconds(std::llround(job.stallTimeoutMs * 1e6))));
    InstalledTraining installed;
    // The ideal transport moves payload at the rate TCP can reach on these links.
    const TransportSettings& transport = scenario.transportSettings;
    const DataRate rate(scenario.dataRate);
    installed.idealRate
        = DataRate(static_cast<uint64_t>(rate.GetBitRate() * transport.GoodputFraction()));
    installed.idealStepLatency = IdealStepLatency(rate,
                                                  NanoSeconds(std::llround(scenario.delayUs * 1e3)),
                                                  transport,
                                                  scenario.GetPathLinks());
    training.SetTransport(TransportTypeOf(job.transport));
    if (job.transport == "tcp")
    {
        training.SetAttribute("Tos", UintegerValue(job.tos));
        // Each job listens on its own port: jobs may share servers.
        training.SetAttribute("Port", UintegerValue(BaseTrainingPort() + index));
        training.SetAttribute("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
        training.SetAttribute("CongestionControl",
                              StringValue(TransportSettings::TenantCongestionControl(
                                  transport.trainingCongestionControl)));
    }
    else
    {
        training.SetAttribute("DataRate", DataRateValue(installed.idealRate));
        training.SetAttribute("StepLatency", TimeValue(installed.idealStepLatency));
    }
    // The placement covers the workers, then any dedicated parameter servers.
    const uint32_t workers = scenario.WorkersOf(job);
    const bool dedicated = job.parameterServerHosts == "dedicated";
    training.SetAttribute("ParameterServerHosts",
                          EnumValue(dedicated ? TrainingJob::DEDICATED : TrainingJob::CO_LOCATED));
    const NodeContainer placed
        = PlaceJob(network, job.placement, workers + (dedicated ? job.parameterServers : 0), &taken)
              ->GetServers();
    NodeContainer workerNodes;
    NodeContainer serverNodes;
    for (uint32_t i = 0; i < placed.GetN(); ++i)
    {
        (i < workers ? workerNodes : serverNodes).Add(placed.Get(i));
    }
    ApplicationContainer apps = dedicated ? training.Install(workerNodes, serverNodes, model)
                                          : training.Install(workerNodes, model);
    apps.Start(Seconds(job.startS));
    for (uint32_t rank : StragglerRanks(job, workers, "--stragglers"))
    {
        training.GetJob()->GetWorker(rank)->SetAttribute("ComputeScale",
                                                         DoubleValue(job.stragglerScale));
    }
    if (!job.jitter.empty())
    {
        for (uint32_t r = 0; r < training.GetJob()->GetWorkerCount(); ++r)
        {
            Ptr<TrainingWorker> worker = training.GetJob()->GetWorker(r);
            worker->SetAttribute("ComputeJitter",
                                 PointerValue(RandomVariableFromText(job.jitter, "--jitter")));
            // Fixed streams, so the seed alone decides the draws: 3000 + 256 x job + rank.
            worker->AssignStreams(3000 + 256 * index + r);
        }
    }
    installed.job = training.GetJob();
    return installed;
}

} // namespace

std::vector<InstalledTraining>
InstallTrainingJobs(const TrainingScenario& scenario, Ptr<ServerTopology> network)
{
    std::vector<InstalledTraining> installed;
    std::set<uint32_t> taken;
    const std::vector<TrainingJobParameters> jobs = scenario.Jobs();
    for (uint32_t k = 0; k < jobs.size(); ++k)
    {
        installed.push_back(InstallJob(scenario, jobs[k], k, network, taken));
    }
    return installed;
}

InstalledTraining
InstallTraining(const TrainingScenario& scenario, Ptr<ServerTopology> network)
{
    if (!scenario.moreJobs.empty())
    {
        throw DdnnError("the scenario has " + std::to_string(scenario.moreJobs.size() + 1)
                        + " training jobs; this program runs one (ddnn-datacenter runs several)");
    }
    return InstallTrainingJobs(scenario, network).front();
}

TrainingRunResult
RunTraining(const TrainingScenario& scenario, const std::string& outDir)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.seed);
    InstalledTraining training = InstallTraining(scenario, CreateTopology(scenario));
    TrainingRecorder recorder(training.job);
    {
        Time end = scenario.stopS > 0
                       ? Seconds(scenario.stopS)
                       : Seconds(scenario.startS)
                             + scenario.iterations * training.job->GetModel()->GetComputeTime();
        ProgressMeter progress(end, scenario.progress);
        Simulator::Run();
    }
    TrainingRunResult result;
    result.summary = recorder.Summarize(training.idealRate, training.idealStepLatency);
    result.modelBytes = training.job->GetModel()->GetTotalBytes();
    if (!outDir.empty())
    {
        recorder.WriteCsv(outDir);
    }
    Simulator::Destroy();
    return result;
}

} // namespace ns3
