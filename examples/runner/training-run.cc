/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-run.h"

#include "distributed-run.h"

#include "ns3/ddnn-collective.h"
#include "ns3/single-tor-helper.h"
#include "ns3/training-helper.h"
#include "port-plan.h"
#include "program-main.h"
#include "progress-meter.h"
#include "random-variable-text.h"
#include "scaled-replica.h"
#include "scenario-attributes.h"
#include "scenario-file.h"

#include "ns3/aggregation-helper.h"
#include "ns3/job-placement.h"

#include "ddnn-scenario-params.h"
#include "ns3/boolean.h"
#include "ns3/buffer-priority-policy.h"
#include "ns3/ddnn-profile.h"
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
#include <iostream>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/** The ranks a job's stragglers list names ("0,3"; Scenario::ValidateTraining checks it). */
std::set<uint32_t>
StragglerRanks(const ddnn_scenario_job& job)
{
    std::set<uint32_t> ranks;
    std::stringstream list(job.stragglers);
    std::string item;
    while (job.stragglers[0] != '\0' && std::getline(list, item, ','))
    {
        ranks.insert(static_cast<uint32_t>(std::stoul(item)));
    }
    return ranks;
}

} // namespace

Ptr<DnnModel>
LoadJobModel(const Scenario& scenario, uint32_t k)
{
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    SetScenarioAttributes(scenario, k, model);
    model->SetAttribute("ByteScale", DoubleValue(scenario.values.scale));
    const ddnn_scenario_job& job = scenario.Job(k);
    if (job.chakra_trace[0] == '\0')
    {
        model->Load();
        model->SetComputeTime(scenario.ComputeTime(k, model->GetTotalBytes()));
        return model;
    }
    // A trace is the whole model: its own layers and compute times. The profile row always
    // holds a path (its default resolved), so only one other than the default is a conflict.
    const Scenario defaults;
    if (std::string(job.profile) != defaults.Job(0).profile)
    {
        throw DdnnError(JobArgument(k, "chakraTrace") + "=" + job.chakra_trace + ": excludes "
                        + JobArgument(k, "profile") + "=" + job.profile
                        + ": a trace is its own model; give one of them");
    }
    if (job.compute_ms > 0)
    {
        throw DdnnError(JobArgument(k, "computeMs") + ": does not apply to a Chakra trace ("
                        + JobArgument(k, "chakraTrace") + "), whose compute times are its own");
    }
    model->SetAttribute("ProfileFile", StringValue(""));
    model->Load();
    if (model->GetChakraRanks() != scenario.WorkersOf(k))
    {
        throw DdnnError(JobArgument(k, "chakraTrace") + "=" + job.chakra_trace + ": the trace has "
                        + std::to_string(model->GetChakraRanks()) + " ranks, the job "
                        + std::to_string(scenario.WorkersOf(k)) + " workers (--workers or "
                        + JobArgument(k, "jobWorkers") + ")");
    }
    // A buffer's deadline is the compute that waits for it: without any, a least-slack queue
    // disc would find every training packet already late.
    if (scenario.ReadsSlackTags() && model->GetComputeTime().IsZero())
    {
        throw DdnnError("--queueDisc=" + std::string(scenario.values.queue_disc) + ": "
                        + JobArgument(k, "chakraTrace") + "=" + job.chakra_trace
                        + " has no compute time, so its buffers have no deadline; expected a "
                          "trace with compute nodes, or another queue disc");
    }
    return model;
}

namespace
{

/** Job k's collective and its configuration (rank 0). */
const ddnn_collective_ops*
CollectiveOf(const Scenario& scenario, uint32_t k, ddnn_collective_config& cfg)
{
    const ddnn_scenario_job& job = scenario.Job(k);
    const ddnn_collective_ops* ops = ddnn_collective_find(job.collective);
    if (ops == nullptr)
    {
        throw DdnnError("--collective: no collective named '" + std::string(job.collective) + "'");
    }
    cfg = ddnn_collective_config{};
    cfg.workers = scenario.WorkersOf(k);
    cfg.servers = job.parameter_servers;
    cfg.dedicated = Is(job.parameter_server_hosts, "dedicated") ? 1u : 0u;
    cfg.group_distribution = Is(job.distribution, "multicast") ? 1u : 0u;
    return ops;
}

} // namespace

uint64_t
BytesSentPerIteration(const Scenario& scenario, uint32_t k)
{
    Ptr<DnnModel> model = LoadJobModel(scenario, k);
    ddnn_collective_config cfg;
    const ddnn_collective_ops* ops = CollectiveOf(scenario, k, cfg);
    const uint32_t ranks = ddnn_collective_ranks(&cfg);
    uint64_t sent = 0;
    for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
    {
        for (cfg.rank = 0; cfg.rank < ranks; ++cfg.rank)
        {
            sent += ops->bytes_sent_by(&cfg, model->GetBuffer(b).bytes);
        }
    }
    return sent;
}

Time
IdealIterationTime(const Scenario& scenario, uint32_t k)
{
    const ddnn_scenario_job& job = scenario.Job(k);
    Ptr<DnnModel> model = LoadJobModel(scenario, k);
    ddnn_collective_config cfg;
    const ddnn_collective_ops* ops = CollectiveOf(scenario, k, cfg);
    const uint32_t ranks = ddnn_collective_ranks(&cfg);
    const DataRate lineRate = scenario.LinkRate();
    const TransportSettings transport = scenario.Transport();
    const double rate = lineRate.GetBitRate() * transport.GoodputFraction();
    const Time latency
        = transport.IdealStepLatency(lineRate, scenario.LinkDelay(), scenario.GetPathLinks());
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

/** Builds `topology` (PlanTopology's) with the scenario's links and queue discs. */
/** A run over several processes (--mpi): a topology they can split, and jobs whose parts
 * meet only through the network. */
void
CheckDistributable(const Scenario& scenario, Ptr<ServerTopology> topology)
{
    const std::string ranks = "--mpi: " + std::to_string(DistributedRun::Ranks()) + " ranks";
    TypeId::AttributeInformation info;
    if (!topology->GetInstanceTypeId().LookupAttributeByName("Ranks", &info))
    {
        throw DdnnError(ranks + ", but the " + std::string(scenario.values.topology_kind)
                        + " topology runs in one process; expected leaf-spine or fat-tree "
                          "(split by rack or pod), or 1 rank");
    }
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        const ddnn_scenario_job& job = scenario.Job(k);
        if (Is(job.collective, "in-network-aggregation") || Is(job.distribution, "multicast"))
        {
            throw DdnnError(ranks + ", but " + JobArgument(k, "training")
                            + " uses the switch's aggregation or multicast, which run in one "
                              "process only; expected 1 rank");
        }
    }
}

void
BuildTopology(const Scenario& scenario, Ptr<ServerTopology> topology)
{
    const ddnn_scenario& x = scenario.values;
    const TopologyAttributes set(topology);
    const Time delay = scenario.LinkDelay();
    // One rack (SingleTorHelper): its links and their impairments.
    set("DataRate", DataRateValue(scenario.LinkRate()));
    set("Delay", TimeValue(delay));
    set("RateCap",
        DataRateValue(x.rate_cap[0] == '\0' ? DataRate("0bps")
                                            : ScaledRate(scenario, DataRate(x.rate_cap))));
    // Fabrics (FabricTopology): the server tier's links and the fabric's.
    set("ServerDataRate", DataRateValue(scenario.LinkRate()));
    set("FabricDataRate",
        DataRateValue(ScaledRate(
            scenario, DataRate(x.fabric_data_rate[0] == '\0' ? x.data_rate : x.fabric_data_rate))));
    set("ServerDelay", TimeValue(delay));
    set("FabricDelay", TimeValue(delay));
    // Every egress.
    set("QueueDisc", EnumValue(EgressQueue::FromScenario(x.queue_disc)));
    set("EcnThresholdPackets", UintegerValue(ScaledPackets(scenario, x.ecn_threshold_packets)));
    set("BandWeights", StringValue(x.band_weights));
    set("ServerBandLimitPackets", UintegerValue(ScaledPackets(scenario, x.host_band_packets)));
    // The switches' limit is an attribute of its own (no row): the replica scales its value.
    if (UintegerValue limit; topology->GetAttributeFailSafe("QueueDiscLimitPackets", limit))
    {
        set("QueueDiscLimitPackets", UintegerValue(ScaledPackets(scenario, limit.Get())));
    }
    if (DistributedRun::Ranks() > 1)
    {
        CheckDistributable(scenario, topology);
        topology->SetAttribute("Ranks", UintegerValue(DistributedRun::Ranks()));
    }
    topology->Create();
}

} // namespace

Ptr<ServerTopology>
PlanTopology(const Scenario& scenario, const std::string& kind, uint32_t servers)
{
    ObjectFactory factory;
    factory.SetTypeId(ServerTopology::Lookup(kind));
    Ptr<ServerTopology> topology = factory.Create<ServerTopology>();
    const TopologyAttributes set(topology);
    set("Servers", UintegerValue(servers));       // one rack (SingleTorHelper)
    SetScenarioAttributes(scenario, 0, topology); // its shape (and impairments)
    return topology;
}

std::string
TransportTypeOf(const std::string& transport)
{
    return PartitionTransport::Lookup(transport).GetName();
}

Ptr<SingleTorHelper>
CreateNetwork(const Scenario& scenario, uint32_t servers)
{
    scenario.Transport().Apply();
    Ptr<ServerTopology> rack = PlanTopology(scenario, "single-tor", servers);
    BuildTopology(scenario, rack);
    return DynamicCast<SingleTorHelper>(rack);
}

Ptr<ServerTopology>
CreateTopology(const Scenario& scenario)
{
    scenario.Transport().Apply();
    Ptr<ServerTopology> topology
        = PlanTopology(scenario, scenario.values.topology_kind, scenario.values.workers);
    BuildTopology(scenario, topology);
    return topology;
}

namespace
{

/**
 * Refuses a compute that would put an iteration past 10^6 s (the longest ddnn simulates): a
 * straggler's scale, and a jitter's draws (1000 on a stream of their own, before the run; a
 * worker that draws one later ends the run saying so).
 */
void
CheckComputeReach(const Scenario& scenario, uint32_t k, Time compute)
{
    const ddnn_scenario_job& job = scenario.Job(k);
    const double longest = DDNN_PROFILE_MAX_COMPUTE_NS / 1e9;
    const double scale = job.stragglers[0] != '\0' ? std::max(1.0, job.straggler_scale) : 1.0;
    if (!(compute.GetSeconds() * scale <= longest))
    {
        std::ostringstream os;
        os << JobArgument(k, "stragglerScale") << ": " << job.straggler_scale
           << " times the iteration's compute of " << compute.GetSeconds() << " s is "
           << compute.GetSeconds() * scale << " s, more than 10^6 s (the longest ddnn simulates)";
        throw DdnnError(os.str());
    }
    if (job.jitter[0] == '\0')
    {
        return;
    }
    const std::string option = JobArgument(k, "jitter");
    Ptr<RandomVariableStream> draws = RandomVariableFromText(job.jitter, option);
    draws->SetStream(1); // not one of the run's streams: the run's draws stay as they were
    for (int i = 0; i < 1000; ++i)
    {
        const double j = draws->GetValue();
        const double seconds = std::max(0.0, 1 + j) * compute.GetSeconds() * scale;
        if (!(seconds <= longest))
        {
            std::ostringstream os;
            os << option << ": a draw of j = " << j << " makes an iteration's compute " << seconds
               << " s, more than 10^6 s (the longest ddnn simulates; drawn before the run)";
            throw DdnnError(os.str());
        }
    }
}

/** Job `k` of the scenario on its servers; see InstallTrainingJobs. */
InstalledTraining
InstallJob(const Scenario& scenario,
           uint32_t k,
           Ptr<ServerTopology> network,
           std::set<uint32_t>& taken)
{
    const ddnn_scenario_job& job = scenario.Job(k);
    // The model is read once: its bytes size the compute time from --rcp.
    Ptr<DnnModel> model = LoadJobModel(scenario, k);

    TrainingHelper training;
    SetScenarioAttributes(scenario,
                          k,
                          TrainingJob::GetTypeId(),
                          [&](const std::string& name, const AttributeValue& value) {
                              training.SetAttribute(name, value);
                          });
    InstalledTraining installed;
    // The ideal transport moves payload at the rate TCP can reach on these links.
    const TransportSettings transport = scenario.Transport();
    const DataRate rate = scenario.LinkRate();
    installed.idealRate
        = DataRate(static_cast<uint64_t>(rate.GetBitRate() * transport.GoodputFraction()));
    // The priority policy the scenario names, with its rows' attributes; one that estimates
    // transfer times before any byte moved assumes the rate TCP reaches on these links.
    ObjectFactory policyFactory;
    policyFactory.SetTypeId(BufferPriorityPolicy::Lookup(job.priority_policy));
    Ptr<BufferPriorityPolicy> policy = policyFactory.Create<BufferPriorityPolicy>();
    SetScenarioAttributes(scenario, k, policy);
    policy->SetAttributeFailSafe("NominalRate", DataRateValue(installed.idealRate));
    training.SetAttribute("BufferPriority", PointerValue(policy));
    installed.idealStepLatency
        = transport.IdealStepLatency(rate, scenario.LinkDelay(), scenario.GetPathLinks());
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
    if (Is(job.band, "scenario"))
    {
        training.SetAttribute("Priority", StringValue(scenario.TenantPriorities().first));
    }
    else
    {
        setTransport("Tos", UintegerValue(scenario.JobTos(k))); // the egress band's
    }
    // Each job listens on its own port: jobs may share servers.
    setTransport("Port",
                 UintegerValue(ConfiguredPort(TcpPartitionTransport::GetTypeId(), "Port") + k));
    training.SetAttribute("SyncPort",
                          UintegerValue(ConfiguredPort(TrainingJob::GetTypeId(), "SyncPort") + k));
    setTransport("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
    setTransport("CongestionControl",
                 StringValue(TransportSettings::TenantCongestionControl(
                     transport.trainingCongestionControl)));
    setTransport("SlackTags", BooleanValue(scenario.ReadsSlackTags()));
    SetScenarioAttributes(scenario, k, transportType, setTransport);
    setTransport("DataRate", DataRateValue(installed.idealRate));
    setTransport("StepLatency", TimeValue(installed.idealStepLatency));
    // The placement covers the workers, then any dedicated parameter servers.
    const uint32_t workers = scenario.WorkersOf(k);
    const bool dedicated = Is(job.parameter_server_hosts, "dedicated");
    const NodeContainer placed
        = PlaceJob(
              network, job.placement, workers + (dedicated ? job.parameter_servers : 0), &taken)
              ->GetServers();
    NodeContainer workerNodes;
    NodeContainer serverNodes;
    for (uint32_t i = 0; i < placed.GetN(); ++i)
    {
        (i < workers ? workerNodes : serverNodes).Add(placed.Get(i));
    }
    training.SetModel(model);
    ApplicationContainer apps = training.Install(workerNodes, serverNodes);
    apps.Start(Seconds(job.start_s));
    if (training.GetJob()->AggregatesInNetwork())
    {
        AggregationHelper aggregation;
        SetScenarioAttributes(scenario,
                              k,
                              AggregatingSwitch::GetTypeId(),
                              [&](const std::string& name, const AttributeValue& value) {
                                  aggregation.SetSwitchAttribute(name, value);
                              });
        if (!aggregation.Join(training.GetJob()))
        {
            std::cerr << "ddnn: job " << k + 1 << ": " << training.GetJob()->GetFallback()
                      << std::endl; // once, before the run
        }
    }
    for (uint32_t rank : StragglerRanks(job))
    {
        training.GetJob()->GetWorker(rank)->SetAttribute("ComputeScale",
                                                         DoubleValue(job.straggler_scale));
    }
    CheckComputeReach(scenario, k, model->GetComputeTime());
    if (job.jitter[0] != '\0')
    {
        for (uint32_t r = 0; r < training.GetJob()->GetWorkerCount(); ++r)
        {
            Ptr<TrainingWorker> worker = training.GetJob()->GetWorker(r);
            worker->SetAttribute("ComputeJitter",
                                 PointerValue(RandomVariableFromText(job.jitter, "--jitter")));
            // Fixed streams, so the seed alone decides the draws: 3000 + 256 x job + rank.
            worker->AssignStreams(3000 + 256 * k + r);
        }
    }
    installed.job = training.GetJob();
    return installed;
}

} // namespace

std::vector<InstalledTraining>
InstallTrainingJobs(const Scenario& scenario, Ptr<ServerTopology> network)
{
    std::vector<InstalledTraining> installed;
    std::set<uint32_t> taken;
    for (uint32_t k = 0; k < scenario.JobCount(); ++k)
    {
        installed.push_back(InstallJob(scenario, k, network, taken));
    }
    return installed;
}

InstalledTraining
InstallTraining(const Scenario& scenario, Ptr<ServerTopology> network)
{
    if (scenario.JobCount() > 1)
    {
        throw DdnnError("the scenario has " + std::to_string(scenario.JobCount())
                        + " training jobs; this program runs one (ddnn-datacenter runs several)");
    }
    return InstallTrainingJobs(scenario, network).front();
}

void
MergeRanks(const std::vector<Ptr<TrainingJob>>& jobs,
           const std::vector<TrainingRecorder*>& recorders,
           const std::function<void(const std::function<void(std::string, MergeFunction)>&)>& more)
{
    if (!DistributedRun::Enabled())
    {
        return;
    }
    // First the failures: a run a rank ended has no results on any rank.
    std::string failure;
    for (const auto& job : jobs)
    {
        try
        {
            job->ThrowIfFailed();
        }
        catch (const DdnnError& e)
        {
            failure = e.what();
        }
    }
    const std::vector<std::string> failures = DistributedRun::Gather(failure);
    for (uint32_t r = 0; r < failures.size(); ++r)
    {
        if (!failures[r].empty())
        {
            DistributedRun::SetSimulating(false); // every rank has the failure: rank 0 says it
            throw DdnnError("rank " + std::to_string(r) + ": " + failures[r]);
        }
    }
    const auto merge = [](std::string mine, MergeFunction into) {
        const std::vector<std::string> states = DistributedRun::Gather(mine);
        for (uint32_t r = 0; r < states.size(); ++r)
        {
            if (r != DistributedRun::Rank())
            {
                into(states[r]);
            }
        }
    };
    for (TrainingRecorder* recorder : recorders)
    {
        merge(recorder->GetRankState(),
              [recorder](const std::string& state) { recorder->MergeRankState(state); });
    }
    if (more)
    {
        more(merge);
    }
    // Until here a rank's failure was its own and ended every process; from here on every
    // rank holds the same results, and a failure is everyone's.
    DistributedRun::SetSimulating(false);
}

TrainingRunResult
RunTraining(const Scenario& scenario, const std::string& outDir)
{
    scenario.ValidateTraining();
    RngSeedManager::SetSeed(scenario.values.seed);
    RngSeedManager::SetRun(scenario.values.rng_run);
    InstalledTraining training = InstallTraining(scenario, CreateTopology(scenario));
    TrainingRecorder recorder(training.job);
    {
        const ddnn_scenario_job& job = scenario.Job(0);
        // Compute-bound, the run ends no earlier than this: past 10^6 s (the longest ddnn
        // simulates) ns-3's clock would reach its end, so it is refused before it runs.
        const double endS
            = job.stop_s > 0
                  ? job.stop_s
                  : job.start_s
                        + job.iterations * training.job->GetModel()->GetComputeTime().GetSeconds();
        if (!(endS <= DDNN_PROFILE_MAX_COMPUTE_NS / 1e9))
        {
            std::ostringstream os;
            os << "--iterations: " << job.iterations << " iterations of "
               << training.job->GetModel()->GetComputeTime().GetSeconds()
               << " s of compute each end after " << endS
               << " s, more than 10^6 s (the longest ddnn simulates): give fewer iterations, "
                  "less compute or a --stopS";
            throw DdnnError(os.str());
        }
        ProgressMeter progress(Seconds(endS), scenario.progress);
        DistributedRun::SetSimulating(true);
        Simulator::Run();
    }
    MergeRanks({training.job}, {&recorder});
    TrainingRunResult result;
    result.summary = recorder.Summarize(training.idealRate, training.idealStepLatency);
    result.modelBytes = training.job->GetModel()->GetTotalBytes();
    if (!outDir.empty() && DistributedRun::Rank() == 0)
    {
        recorder.WriteCsv(outDir);
    }
    Simulator::Destroy();
    return result;
}

} // namespace ns3
