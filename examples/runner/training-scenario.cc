/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-scenario.h"

#include "../../model/ddnn-collective.h"
#include "ns3/single-tor-helper.h"
#include "ns3/training-helper.h"
#include "program-main.h"
#include "progress-meter.h"
#include "random-variable-text.h"
#include "scenario-file.h"

#include "ns3/job-placement.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-profile.h"
#include "ns3/ddnn-scenario-params.h"
#include "ns3/dnn-model.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/object-factory.h"
#include "ns3/one-line-error.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-partition-transport.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/** The largest fabric (leaf-spine or fat tree) built: links (server and switch-to-switch) and
 * nodes (servers and switches). */
constexpr uint64_t kMaxFabricLinks = 4096;
constexpr uint64_t kMaxFabricNodes = 2048;

/**
 * Whether text is a data rate the whole stack takes: ns-3's DataRate parser aborts on a
 * blank ("10 Gbps") and converts a rate above 2^64 bit/s to an undefined value, and above
 * 1000 Gbit/s a packet's transmission time rounds to a nanosecond or less.
 */
bool
IsRate(const std::string& text)
{
    const double maxBps = 1e12;
    if (text.empty() || text.size() > 40)
    {
        return false;
    }
    for (unsigned char c : text)
    {
        if (std::isspace(c) || !std::isprint(c))
        {
            return false;
        }
    }
    // The number's digits, then the unit ns-3 knows: its value as the rate of "1UNIT".
    const size_t unitAt = text.find_first_not_of("0123456789.");
    DataRateValue unit;
    if (unitAt == 0 || unitAt == std::string::npos
        || !unit.DeserializeFromString("1" + text.substr(unitAt), MakeDataRateChecker()))
    {
        return false;
    }
    const double bps = std::strtod(text.substr(0, unitAt).c_str(), nullptr)
                       * static_cast<double>(unit.Get().GetBitRate());
    DataRateValue rate;
    return bps >= 1 && bps <= maxBps && rate.DeserializeFromString(text, MakeDataRateChecker())
           && rate.Get().GetBitRate() > 0;
}

} // namespace

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
    AddOption(cmd, "outDir", "folder for the CSV files", outDir);
    AddOption(
        cmd, "progress", "progress on stderr: auto (when a terminal), always or never", progress);
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
    if (!IsRate(dataRate))
    {
        fail("dataRate",
             "expected a rate such as 10Gbps, got '" + dataRate + "' (1bps to 1000Gbps)");
    }
    if (!rateCap.empty() && !IsRate(rateCap))
    {
        fail("rateCap",
             "expected a rate such as 1Gbps (or nothing for no cap), got '" + rateCap
                 + "' (1bps to 1000Gbps)");
    }
    if (topologyKind == "single-tor" && !impairedServers.empty())
    {
        // The helper's own check, named by the option the user gave.
        Ptr<SingleTorHelper> probe = CreateObject<SingleTorHelper>();
        probe->SetAttribute("ImpairedServers", StringValue(impairedServers));
        try
        {
            probe->ImpairedServers(GetServerCount());
        }
        catch (const DdnnError& e)
        {
            const std::string what = e.what();
            fail("impairedServers", what.substr(what.find(": ") + 2));
        }
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
        // Global routing's tables grow with nodes x links: 4096 links take about 600 MB and
        // seconds to build (a fat tree of k = 16, the largest, has 3072 links, 1344 nodes).
        const uint64_t servers = GetServerCount();
        const uint64_t k = fatTreeK;
        const uint64_t links = topologyKind == "fat-tree"
                                   ? 3 * k * k * k / 4
                                   : servers + static_cast<uint64_t>(leaves) * spines;
        const uint64_t nodes
            = topologyKind == "fat-tree" ? servers + 5 * k * k / 4 : servers + leaves + spines;
        if (links > kMaxFabricLinks || nodes > kMaxFabricNodes)
        {
            fail(topologyKind == "fat-tree" ? "fatTreeK" : "spines",
                 "the " + topologyKind + " would have " + std::to_string(links) + " links and "
                     + std::to_string(nodes) + " nodes, at most " + std::to_string(kMaxFabricLinks)
                     + " links and " + std::to_string(kMaxFabricNodes) + " nodes");
        }
        if (topologyKind == "fat-tree" && fatTreeK % 2 != 0)
        {
            fail("fatTreeK", "expected an even radix, got " + std::to_string(fatTreeK));
        }
        if (!fabricDataRate.empty() && !IsRate(fabricDataRate))
        {
            fail("fabricDataRate",
                 "expected a rate such as 40Gbps, got '" + fabricDataRate + "' (1bps to 1000Gbps)");
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
    const bool tooLong = !(ns <= static_cast<double>(DDNN_PROFILE_MAX_COMPUTE_NS));
    if (tooLong || std::llround(ns) < 1)
    {
        std::ostringstream os;
        os << "--rcp: " << job.rcp << " gives a compute time of " << ns / 1e9
           << " s per iteration at --dataRate=" << dataRate
           << (tooLong ? ", more than 10^6 s" : ", less than 1 ns");
        throw DdnnError(os.str());
    }
    return NanoSeconds(std::llround(ns));
}

Time
IdealIterationTime(const TrainingScenario& scenario, const TrainingJobParameters& job)
{
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(job.profile));
    model->SetAttribute("FusionBufferBytes", UintegerValue(job.fusionBytes));
    model->Load();
    model->SetComputeTime(scenario.ComputeTime(job, model->GetTotalBytes()));
    const ddnn_collective_ops* ops = ddnn_collective_find(job.collective.c_str());
    if (ops == nullptr)
    {
        throw DdnnError("--collective: no collective named '" + job.collective + "'");
    }
    ddnn_collective_config cfg{};
    cfg.workers = scenario.WorkersOf(job);
    cfg.servers = job.parameterServers;
    cfg.dedicated = job.parameterServerHosts == "dedicated" ? 1u : 0u;
    const uint32_t ranks = ddnn_collective_ranks(&cfg);
    const DataRate lineRate(scenario.dataRate);
    const TransportSettings& transport = scenario.transportSettings;
    const double rate = lineRate.GetBitRate() * transport.GoodputFraction();
    const Time latency = transport.IdealStepLatency(
        lineRate, NanoSeconds(std::llround(scenario.delayUs * 1e3)), scenario.GetPathLinks());
    auto ideal = [&](uint64_t bytes) {
        uint64_t busiest = 0;
        for (cfg.rank = 0; cfg.rank < ranks; ++cfg.rank)
        {
            busiest = std::max(busiest, ops->bytes_sent_by(&cfg, bytes));
        }
        cfg.rank = 0;
        return Seconds(busiest * 8.0 / rate)
               + latency * static_cast<int64_t>(ops->sequential_steps(&cfg));
    };
    Time all;
    for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
    {
        all += ideal(model->GetBuffer(b).bytes);
    }
    const Time compute = model->GetComputeTime();
    if (!job.barrier)
    {
        return std::max(compute, all);
    }
    Time forward;
    for (uint32_t l = 0; l < model->GetLayerCount(); ++l)
    {
        forward += model->GetForwardTime(l);
    }
    const Time last = ideal(model->GetBuffer(model->GetBufferOfLayer(0)).bytes);
    return std::max(compute + last, forward + all);
}

namespace
{

/** Sets the attributes of `topology` that its type has, leaves the others alone. */
class TopologyAttributes
{
  public:
    explicit TopologyAttributes(Ptr<ServerTopology> topology)
        : m_topology(topology)
        , m_type(topology->GetInstanceTypeId())
    {
    }

    void
    operator()(const std::string& name, const AttributeValue& value) const
    {
        TypeId::AttributeInformation info;
        if (m_type.LookupAttributeByName(name, &info)
            && !m_topology->SetAttributeFailSafe(name, value))
        {
            throw DdnnError(m_type.GetName() + "::" + name + ": invalid value");
        }
    }

  private:
    Ptr<ServerTopology> m_topology;
    TypeId m_type;
};

/**
 * A topology of the kind `kind` names (ServerTopology::Lookup), not yet built, of the
 * scenario's shape: `servers` on one rack, or the fabric's.
 */
Ptr<ServerTopology>
MakeTopology(const TrainingScenario& scenario, const std::string& kind, uint32_t servers)
{
    ObjectFactory factory;
    factory.SetTypeId(ServerTopology::Lookup(kind));
    Ptr<ServerTopology> topology = factory.Create<ServerTopology>();
    const TopologyAttributes set(topology);
    set("Servers", UintegerValue(servers)); // one rack (SingleTorHelper)
    set("Leaves", UintegerValue(scenario.leaves));
    set("ServersPerLeaf", UintegerValue(scenario.serversPerLeaf));
    set("Spines", UintegerValue(scenario.spines));
    set("K", UintegerValue(scenario.fatTreeK));
    return topology;
}

/** Builds `topology` (MakeTopology's) with the scenario's links and queue discs. */
void
BuildTopology(const TrainingScenario& scenario, Ptr<ServerTopology> topology)
{
    const TopologyAttributes set(topology);
    const Time delay = NanoSeconds(std::llround(scenario.delayUs * 1e3));
    // One rack (SingleTorHelper): its links and their impairments.
    set("DataRate", DataRateValue(DataRate(scenario.dataRate)));
    set("Delay", TimeValue(delay));
    set("LossRate", DoubleValue(scenario.lossRate));
    set("AddedDelay", TimeValue(NanoSeconds(std::llround(scenario.addedDelayUs * 1e3))));
    set("RateCap", DataRateValue(DataRate(scenario.rateCap.empty() ? "0bps" : scenario.rateCap)));
    set("ImpairedServers", StringValue(scenario.impairedServers));
    // Fabrics (FabricTopology): the server tier's links and the fabric's.
    set("ServerDataRate", DataRateValue(DataRate(scenario.dataRate)));
    set("FabricDataRate",
        DataRateValue(DataRate(scenario.fabricDataRate.empty() ? scenario.dataRate
                                                               : scenario.fabricDataRate)));
    set("ServerDelay", TimeValue(delay));
    set("FabricDelay", TimeValue(delay));
    // Every egress.
    set("QueueDisc", EnumValue(EgressQueue::FromScenario(scenario.queueDisc)));
    set("EcnThresholdPackets", UintegerValue(scenario.ecnThresholdPackets));
    topology->Create();
}

} // namespace

uint32_t
TrainingScenario::GetServerCount() const
{
    return MakeTopology(*this, topologyKind, workers)->GetPlannedServerCount();
}

uint32_t
TrainingScenario::GetPathLinks() const
{
    return MakeTopology(*this, topologyKind, workers)->GetPathLinks();
}

std::string
TransportTypeOf(const std::string& transport)
{
    return PartitionTransport::Lookup(transport).GetName();
}

Ptr<SingleTorHelper>
CreateNetwork(const TrainingScenario& scenario, uint32_t servers)
{
    scenario.transportSettings.Apply();
    Ptr<ServerTopology> rack = MakeTopology(scenario, "single-tor", servers);
    BuildTopology(scenario, rack);
    return DynamicCast<SingleTorHelper>(rack);
}

Ptr<ServerTopology>
CreateTopology(const TrainingScenario& scenario)
{
    scenario.transportSettings.Apply();
    Ptr<ServerTopology> topology = MakeTopology(scenario, scenario.topologyKind, scenario.workers);
    BuildTopology(scenario, topology);
    return topology;
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
    installed.idealStepLatency = transport.IdealStepLatency(
        rate, NanoSeconds(std::llround(scenario.delayUs * 1e3)), scenario.GetPathLinks());
    const TypeId transportType = PartitionTransport::Lookup(job.transport);
    training.SetTransport(transportType.GetName());
    // The transport takes the settings it has attributes for (TCP's ToS, port, chunks and
    // congestion control; the ideal transport's rate and step latency), whatever its name.
    auto setTransport = [&](const std::string& name, const AttributeValue& value) {
        TypeId::AttributeInformation info;
        if (transportType.LookupAttributeByName(name, &info))
        {
            training.SetAttribute(name, value);
        }
    };
    setTransport("Tos", UintegerValue(job.tos));
    // Each job listens on its own port: jobs may share servers.
    setTransport("Port", UintegerValue(BaseTrainingPort() + index));
    setTransport("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
    setTransport("CongestionControl",
                 StringValue(TransportSettings::TenantCongestionControl(
                     transport.trainingCongestionControl)));
    setTransport("DataRate", DataRateValue(installed.idealRate));
    setTransport("StepLatency", TimeValue(installed.idealStepLatency));
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
    training.SetModel(model);
    ApplicationContainer apps = training.Install(workerNodes, serverNodes);
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
    RngSeedManager::SetRun(scenario.rngRun);
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
