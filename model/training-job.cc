/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-job.h"

#include "ddnn-collective.h"
#include "ddnn-network-syncer.h"
#include "ddnn-syncer.h"
#include "local-node.h"
#include "ns3-compat.h"
#include "one-line-error.h"
#include "parameter-server-host.h"
#include "sync-messenger.h"
#include "training-worker.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJob");
NS_OBJECT_ENSURE_REGISTERED(TrainingJob);

TypeId
TrainingJob::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TrainingJob")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<TrainingJob>()
              .AddAttribute("Collective",
                            "The collective each fusion buffer runs, by its registered name "
                            "(ddnn_collective_register): ring-allreduce, parameter-server, "
                            "in-network-aggregation, or one a program registered.",
                            StringValue("ring-allreduce"),
                            MakeStringAccessor(&TrainingJob::m_collectiveName),
                            MakeStringChecker())
              .AddAttribute("FallbackCollective",
                            "Collective in-network-aggregation: the collective the job runs "
                            "instead when the switch has no slot memory left for it "
                            "(AggregationHelper::Join); one of ranks only.",
                            StringValue("ring-allreduce"),
                            MakeStringAccessor(&TrainingJob::m_fallbackName),
                            MakeStringChecker())
              .AddAttribute("AggregationSlots",
                            "Collective in-network-aggregation: the slots the job asks the "
                            "switch for, the chunks each worker may have out at once: for the "
                            "links to fill, the pool covers a round trip at the link rate (64 "
                            "of 1 KiB: 52 us at 10 Gbit/s, above the 44 us of 10 us links).",
                            UintegerValue(64),
                            MakeUintegerAccessor(&TrainingJob::m_aggregationSlots),
                            MakeUintegerChecker<uint32_t>(1, 65536))
              .AddAttribute("AggregationSlotBytes",
                            "Collective in-network-aggregation: payload bytes of a slot and of a "
                            "chunk; a chunk and its headers fit the links' MTU.",
                            UintegerValue(1024),
                            MakeUintegerAccessor(&TrainingJob::m_aggregationSlotBytes),
                            MakeUintegerChecker<uint32_t>(1, 65507))
              .AddAttribute("AggregationTimeout",
                            "Collective in-network-aggregation: the least time a worker waits "
                            "for a chunk's result before it sends the chunk again; past the "
                            "first round trips the wait follows them (srtt + max(4 rttvar, "
                            "srtt / 4), as TCP's RTO). At least 10 us: the resends of a "
                            "shorter wait would outnumber the packets.",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&TrainingJob::m_aggregationTimeout),
                            MakeTimeChecker(MicroSeconds(10), Seconds(1000)))
              .AddAttribute("ParameterServers",
                            "Collective parameter-server: the servers P the model is sharded "
                            "over; co-located, at most the workers; dedicated, as many as the "
                            "server nodes given to TrainingHelper::Install.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TrainingJob::m_parameterServers),
                            MakeUintegerChecker<uint32_t>(1, 250))
              .AddAttribute("ParameterServerHosts",
                            "Collective parameter-server: where the servers run. CoLocated: on "
                            "workers 0..P-1, which also compute; Dedicated: on P nodes of their "
                            "own that do not compute (TrainingHelper::Install(workers, servers)), "
                            "to which every worker pushes and from which it pulls.",
                            EnumValue(CO_LOCATED),
                            DDNN_ENUM_ACCESSOR(ParameterServerHosts, &TrainingJob::m_serverHosts),
                            MakeEnumChecker(CO_LOCATED, "CoLocated", DEDICATED, "Dedicated"))
              .AddAttribute("Distribution",
                            "How a collective's distribution phase reaches the workers. "
                            "Unicast: a copy to each; Multicast: one send to the job's group, "
                            "which the network replicates (parameter-server with Dedicated "
                            "hosts, over a transport whose Multicast is on).",
                            EnumValue(UNICAST),
                            DDNN_ENUM_ACCESSOR(Distribution, &TrainingJob::m_distribution),
                            MakeEnumChecker(UNICAST, "Unicast", MULTICAST, "Multicast"))
              .AddAttribute("BufferPriority",
                            "The policy choosing each fusion buffer's ToS (a "
                            "BufferPriorityPolicy, e.g. ns3::FirstBuffersPriority); none: every "
                            "buffer at the transport's own Tos.",
                            PointerValue(),
                            MakePointerAccessor(&TrainingJob::m_bufferPriority),
                            MakePointerChecker<BufferPriorityPolicy>())
              .AddAttribute(
                  "Priority",
                  "The job's priority by name: same (ToS 0x10, every tenant's "
                  "default), low (0x08, PfifoFast band 2), high (0x10, band 0), or "
                  "band0, band1, band2 (PfifoFast's bands); it sets the transport's Tos. "
                  "Empty: the transport's own Tos.",
                  StringValue(""),
                  MakeStringAccessor(&TrainingJob::SetPriority, &TrainingJob::GetPriority),
                  MakeStringChecker())
              .AddAttribute(
                  "PriorityCheck",
                  "At the start of the simulation, when the job's ToS is not the "
                  "default 0x10 and an egress queue disc on its paths puts it in one "
                  "band with another ToS in use (ns-3's default FqCoDel, a FIFO): Warn "
                  "(one line on stderr), Error (a DdnnError out of Simulator::Run) or "
                  "Off.",
                  EnumValue(TenantPriority::CHECK_WARN),
                  DDNN_ENUM_ACCESSOR(TenantPriority::CheckMode, &TrainingJob::m_priorityCheckMode),
                  TenantPriority::MakeCheckModeChecker())
              .AddAttribute("Syncer",
                            "How the workers sync. Instant: the thesis's global syncer, at no "
                            "cost; Network: Horovod's coordinator on worker 0, the workers' "
                            "reports and its responses over TCP on SyncPort at the job's ToS, "
                            "handled once per SyncCycle.",
                            EnumValue(INSTANT),
                            DDNN_ENUM_ACCESSOR(SyncerKind, &TrainingJob::m_syncerKind),
                            MakeEnumChecker(INSTANT, "Instant", NETWORK, "Network"))
              .AddAttribute("SyncCycle",
                            "Syncer Network: the coordinator's cycle (Horovod's cycle time, 1 ms "
                            "by default there too). The coordinator wakes only at the end of "
                            "a cycle in which reports arrived: a short cycle adds no events.",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&TrainingJob::m_syncCycle),
                            MakeTimeChecker(NanoSeconds(1), Seconds(1000)))
              .AddAttribute("SyncPort",
                            "Syncer Network: the TCP port on which the coordinator accepts the "
                            "workers (below the background's 6000; a job of the runner takes "
                            "this + its index, as its transport's Port).",
                            UintegerValue(5100),
                            MakeUintegerAccessor(&TrainingJob::m_syncPort),
                            MakeUintegerChecker<uint16_t>(1, 49151))
              .AddAttribute("QueuePolicy",
                            "Order in which ready buffers start: Fifo (ready order) or Priority "
                            "(lowest layer index first).",
                            EnumValue(FIFO),
                            DDNN_ENUM_ACCESSOR(QueuePolicy, &TrainingJob::m_policy),
                            MakeEnumChecker(FIFO, "Fifo", PRIORITY, "Priority"))
              .AddAttribute("Barrier",
                            "Inter-iteration barrier: forward of the next iteration waits for "
                            "every buffer of this one (else only for the layer's own buffer).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&TrainingJob::m_barrier),
                            MakeBooleanChecker())
              .AddAttribute("FirstPass",
                            "What iteration 0 computes first: Forward (the whole iteration) or "
                            "Backward (no forward pass, as if one had run before the start; "
                            "the thesis code's workers begin so).",
                            EnumValue(FORWARD),
                            DDNN_ENUM_ACCESSOR(FirstPass, &TrainingJob::m_firstPass),
                            MakeEnumChecker(FORWARD, "Forward", BACKWARD, "Backward"))
              .AddAttribute("Iterations",
                            "Iterations to train; 0 means until StopTime.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&TrainingJob::m_iterations),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("StopTime",
                            "No iteration starts at or after this time (absolute simulated "
                            "time); 0 means no limit.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&TrainingJob::m_stopTime),
                            MakeTimeChecker(Seconds(0), Seconds(1e5)))
              .AddAttribute("StallTimeout",
                            "End the run with a diagnosis when nothing progresses for this long.",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&TrainingJob::m_stallTimeout),
                            MakeTimeChecker(NanoSeconds(1), Seconds(1e6)))
              .AddTraceSource("BufferStart",
                              "A buffer's collective started on every rank.",
                              MakeTraceSourceAccessor(&TrainingJob::m_bufferStartTrace),
                              "ns3::TrainingJob::BufferTracedCallback")
              .AddTraceSource("BufferEnd",
                              "Every rank is through with a buffer's collective.",
                              MakeTraceSourceAccessor(&TrainingJob::m_bufferEndTrace),
                              "ns3::TrainingJob::BufferTracedCallback")
              .AddTraceSource("PriorityChange",
                              "BufferPriority moved a collective to another ToS from a step on "
                              "(-1: the transport's own).",
                              MakeTraceSourceAccessor(&TrainingJob::m_priorityChangeTrace),
                              "ns3::TrainingJob::PriorityChangeTracedCallback");
    return tid;
}

TrainingJob::TrainingJob() = default;

TrainingJob::~TrainingJob()
{
    ddnn_syncer_free(m_syncer);
    ddnn_nsync_free(m_nsync);
}

void
TrainingJob::DoDispose()
{
    m_stallCheck.Cancel();
    m_priorityCheck.Cancel();
    m_recheck.Cancel();
    m_workers.clear();
    m_servers.clear();
    m_model = nullptr;
    ddnn_syncer_free(m_syncer);
    m_syncer = nullptr;
    ddnn_nsync_free(m_nsync);
    m_nsync = nullptr;
    m_syncWake.Cancel();
    if (m_messenger)
    {
        m_messenger->Dispose();
        m_messenger = nullptr;
    }
    Object::DoDispose();
}

bool
TrainingJob::Check(int rc, const char* call)
{
    if (rc == DDNN_OK)
    {
        return true;
    }
    std::ostringstream os;
    os << "ns3::TrainingJob: " << call << " failed: " << ddnn_strerror(rc) << " at "
       << Simulator::Now().As(Time::S) << "\n"
       << Describe();
    EndRun(os.str());
    return false;
}

void
TrainingJob::EndRun(const std::string& failure)
{
    if (!m_failure.empty())
    {
        return; // the first failure is the cause; later ones follow from it
    }
    NS_LOG_WARN("the run ends: " << failure);
    m_failure = failure;
    m_stallCheck.Cancel();
    for (uint32_t rank = 0; rank < GetRankCount(); ++rank)
    {
        GetRank(rank)->MarkJobFinished(); // no more reports of connections closing
    }
    Simulator::Stop();
}

bool
TrainingJob::HasFailed() const
{
    return !m_failure.empty();
}

void
TrainingJob::ThrowIfFailed() const
{
    if (!m_failure.empty())
    {
        throw DdnnError(m_failure);
    }
}

void
TrainingJob::CheckLayout(uint32_t workers, uint32_t servers) const
{
    if (workers < 2)
    {
        throw DdnnError("ns3::TrainingJob: expected at least 2 workers, got "
                        + std::to_string(workers));
    }
    if (m_distribution == MULTICAST
        && (!FindCollective()->group_distribution || m_serverHosts != DEDICATED))
    {
        throw DdnnError("ns3::TrainingJob::Distribution: Multicast, expected Collective "
                        "parameter-server with ParameterServerHosts Dedicated, got '"
                        + m_collectiveName + "'"
                        + (m_serverHosts == DEDICATED ? "" : " with CoLocated servers"));
    }
    if (m_serverHosts == CO_LOCATED)
    {
        if (m_parameterServers > workers)
        {
            throw DdnnError("ns3::TrainingJob::ParameterServers: expected at most the "
                            + std::to_string(workers) + " workers, got "
                            + std::to_string(m_parameterServers));
        }
        if (servers > 0)
        {
            throw DdnnError("ns3::TrainingJob::ParameterServerHosts: " + std::to_string(servers)
                            + " parameter-server nodes given, expected none with CoLocated "
                              "(the servers run on workers 0..P-1); set Dedicated to use them");
        }
        return;
    }
    if (!FindCollective()->dedicated_servers)
    {
        std::string hosting; // the collectives that run on dedicated server ranks
        for (size_t i = 0; i < ddnn_collective_registered(); ++i)
        {
            if (ddnn_collective_at(i)->dedicated_servers)
            {
                hosting
                    += (hosting.empty() ? "" : " or ") + std::string(ddnn_collective_at(i)->name);
            }
        }
        throw DdnnError("ns3::TrainingJob::ParameterServerHosts: Dedicated, expected Collective "
                        + hosting + ", got '" + m_collectiveName + "'");
    }
    if (servers != m_parameterServers)
    {
        throw DdnnError("ns3::TrainingJob::ParameterServers: expected "
                        + std::to_string(m_parameterServers)
                        + " dedicated parameter-server nodes (ParameterServerHosts Dedicated), got "
                        + std::to_string(servers));
    }
}

void
TrainingJob::Setup(Ptr<DnnModel> model,
                   const std::vector<Ptr<TrainingWorker>>& workers,
                   const std::vector<Ipv4Address>& addresses,
                   const std::vector<Ptr<ParameterServerHost>>& servers,
                   const std::vector<Ipv4Address>& serverAddresses)
{
    NS_LOG_FUNCTION(this << workers.size() << servers.size());
    m_collective = FindCollective();
    CheckLayout(workers.size(), servers.size());
    NS_ASSERT(addresses.size() == workers.size() && serverAddresses.size() == servers.size());
    m_model = model;
    if (m_bufferPriority)
    {
        m_bufferPriority->Prepare(model); // what it reads fails here, before the run
    }
    m_workers = workers;
    m_servers = servers;
    m_addresses = addresses;
    m_addresses.insert(m_addresses.end(), serverAddresses.begin(), serverAddresses.end());
    CheckProcesses();
    std::vector<uint32_t> lowest(model->GetBufferCount());
    for (uint32_t b = 0; b < lowest.size(); ++b)
    {
        lowest[b] = model->GetBuffer(b).lowestLayer;
    }
    ddnn_syncer_config cfg{}; // every member zero, then set by name
    cfg.workers = static_cast<uint32_t>(workers.size());
    cfg.buffers = static_cast<uint32_t>(lowest.size());
    cfg.buffer_lowest = lowest.data();
    cfg.policy = m_policy == FIFO ? DDNN_QUEUE_FIFO : DDNN_QUEUE_PRIORITY;
    ddnn_syncer_free(m_syncer);
    m_syncer = nullptr;
    ddnn_nsync_free(m_nsync);
    m_nsync = nullptr;
    int rc;
    if (m_syncerKind == INSTANT)
    {
        ddnn_syncer_callbacks cb;
        ddnn_syncer_callbacks_init(&cb);
        cb.start = &TrainingJob::SyncerStart;
        cb.finished = &TrainingJob::SyncerFinished;
        rc = ddnn_syncer_new(&m_syncer, &cfg, &cb, this);
    }
    else
    {
        ddnn_nsync_config ncfg{}; // every member zero, then set by name
        ncfg.queue = cfg;
        ncfg.cycle_ns = m_syncCycle.GetNanoSeconds();
        ncfg.report_bytes = SyncMessenger::MESSAGE_BYTES;
        ncfg.response_bytes = SyncMessenger::MESSAGE_BYTES;
        ddnn_nsync_callbacks cb;
        ddnn_nsync_callbacks_init(&cb);
        cb.send_start = &TrainingJob::CoordinatorStart;
        cb.finished = &TrainingJob::CoordinatorFinished;
        rc = ddnn_nsync_new(&m_nsync, &ncfg, &cb, this);
        m_messenger = CreateObject<SyncMessenger>();
        m_messenger->SetAttribute("Port", UintegerValue(m_syncPort));
        m_messenger->SetCallbacks(MakeCallback(&TrainingJob::SyncReportArrived, this),
                                  MakeCallback(&TrainingJob::SyncStartArrived, this),
                                  MakeCallback(&TrainingJob::SyncFailed, this));
        Simulator::ScheduleNow(&TrainingJob::OpenSync, this);
    }
    if (rc != DDNN_OK)
    {
        throw DdnnError(std::string("ns3::TrainingJob: the syncer cannot be made: ")
                        + ddnn_strerror(rc));
    }
    m_priorityCheck.Cancel();
    m_priorityCheck = Simulator::ScheduleNow(&TrainingJob::CheckPriority, this);
}

void
TrainingJob::CheckProcesses()
{
    m_localWorkers = 0;
    std::set<uint32_t> systems;
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        systems.insert(GetRank(r)->GetNode()->GetSystemId());
        m_localWorkers += r < GetWorkerCount() && IsLocalNode(GetRank(r)->GetNode()) ? 1 : 0;
    }
    if (systems.size() < 2)
    {
        return;
    }
    // Spread over processes of a distributed run, the workers meet only through the network.
    const std::string spread = "the job's workers run in " + std::to_string(systems.size())
                               + " processes of a distributed run";
    if (m_syncerKind == INSTANT)
    {
        throw DdnnError("ns3::TrainingJob::Syncer: Instant, but " + spread
                        + ": the instant syncer calls every worker at once; expected Network");
    }
    if (m_bufferPriority && m_bufferPriority->DecidesFromProgress())
    {
        throw DdnnError("ns3::TrainingJob::BufferPriority: " + spread
                        + ", expected a policy that does not decide from the collective's "
                          "progress: it decides each step for every worker at once");
    }
    if (!m_servers.empty())
    {
        throw DdnnError("ns3::TrainingJob::ParameterServerHosts: Dedicated, but " + spread
                        + ": dedicated servers are started by the job at once; expected CoLocated");
    }
}

void
TrainingJob::SetPriority(std::string name)
{
    NS_LOG_FUNCTION(this << name);
    m_priority = TenantPriority::Valid("ns3::TrainingJob::Priority", name);
}

std::string
TrainingJob::GetPriority() const
{
    return m_priority;
}

TrainingJob::Distribution
TrainingJob::GetDistribution() const
{
    return m_distribution;
}

int
TrainingJob::GetPriorityTos() const
{
    return m_priority.empty() ? -1 : TenantPriority::Tos("ns3::TrainingJob::Priority", m_priority);
}

std::set<uint8_t>
TrainingJob::GetTosValues() const
{
    std::set<uint8_t> values;
    UintegerValue tos;
    if (GetRankCount() == 0 || !GetWorker(0)->GetTransport()->GetAttributeFailSafe("Tos", tos))
    {
        return values; // a transport without packets
    }
    values.insert(GetPriorityTos() >= 0 ? GetPriorityTos() : tos.Get());
    if (m_bufferPriority && m_model)
    {
        const std::set<uint8_t> policy = m_bufferPriority->GetTosValues(m_model);
        values.insert(policy.begin(), policy.end());
    }
    return values;
}

void
TrainingJob::CheckPriority()
{
    NS_LOG_FUNCTION(this << m_priority);
    NodeContainer nodes;
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        nodes.Add(GetRank(r)->GetNode());
    }
    TenantPriority::CheckInEvent(
        m_priorityCheck, m_priorityCheckMode, "the training job", nodes, GetTosValues());
}

Ptr<DnnModel>
TrainingJob::GetModel() const
{
    return m_model;
}

uint32_t
TrainingJob::GetWorkerCount() const
{
    return m_workers.size();
}

uint32_t
TrainingJob::GetRankCount() const
{
    return m_workers.size() + m_servers.size();
}

Ptr<CollectiveRank>
TrainingJob::GetRank(uint32_t rank) const
{
    if (rank < m_workers.size())
    {
        return m_workers[rank];
    }
    return m_servers.at(rank - m_workers.size());
}

Ptr<TrainingWorker>
TrainingJob::GetWorker(uint32_t worker) const
{
    NS_ABORT_MSG_IF(worker >= m_workers.size(),
                    "TrainingJob::GetWorker(" << worker << "): the job has " << m_workers.size()
                                              << " workers (a dedicated parameter server is "
                                                 "GetParameterServer(k), any rank GetRank(r))");
    return m_workers[worker];
}

Ptr<ParameterServerHost>
TrainingJob::GetParameterServer(uint32_t shard) const
{
    return shard < m_servers.size() ? m_servers[shard] : nullptr;
}

Ipv4Address
TrainingJob::GetRankAddress(uint32_t rank) const
{
    return m_addresses.at(rank);
}

Ipv4Address
TrainingJob::GetWorkerAddress(uint32_t rank) const
{
    return GetRankAddress(rank);
}

const ddnn_collective_ops*
TrainingJob::FindCollective() const
{
    const ddnn_collective_ops* ops = ddnn_collective_find(m_collectiveName.c_str());
    if (!ops)
    {
        std::vector<char> known(ddnn_collective_names(", ", nullptr, 0) + 1);
        ddnn_collective_names(", ", known.data(), known.size());
        throw DdnnError("ns3::TrainingJob::Collective: unknown collective '" + m_collectiveName
                        + "', expected one of: " + known.data());
    }
    return ops;
}

const ddnn_collective_ops*
TrainingJob::GetCollective() const
{
    return m_collective;
}

std::string
TrainingJob::GetCollectiveName() const
{
    return m_collectiveName;
}

bool
TrainingJob::AggregatesInNetwork() const
{
    return (m_collective ? m_collective : FindCollective())->network_peer != 0;
}

void
TrainingJob::SetAggregationLease(Ptr<const AggregationLease> lease)
{
    NS_LOG_FUNCTION(this);
    m_aggregationLease = lease;
}

Ptr<const AggregationLease>
TrainingJob::GetAggregationLease() const
{
    return m_aggregationLease;
}

void
TrainingJob::FallBack(const std::string& why)
{
    NS_LOG_FUNCTION(this << why);
    const ddnn_collective_ops* fallback = ddnn_collective_find(m_fallbackName.c_str());
    if (!fallback || fallback->network_peer)
    {
        throw DdnnError("ns3::TrainingJob::FallbackCollective: '" + m_fallbackName
                        + "', expected a registered collective of ranks only (e.g. "
                          "ring-allreduce)");
    }
    NS_LOG_WARN(m_collectiveName << " falls back to " << m_fallbackName << ": " << why);
    m_fallback = m_collectiveName + " fell back to " + m_fallbackName + ": " + why;
    m_collectiveName = m_fallbackName;
    m_collective = fallback;
    CheckLayout(GetWorkerCount(), static_cast<uint32_t>(m_servers.size()));
}

std::string
TrainingJob::GetFallback() const
{
    return m_fallback;
}

int
TrainingJob::GetBufferTos(uint32_t buffer) const
{
    return m_bufferPriority ? m_bufferPriority->GetTos(m_model, buffer) : -1;
}

uint32_t
TrainingJob::GetParameterServers() const
{
    return m_parameterServers;
}

TrainingJob::ParameterServerHosts
TrainingJob::GetParameterServerHosts() const
{
    return m_serverHosts;
}

ddnn_collective_config
TrainingJob::GetCollectiveConfig(uint32_t rank) const
{
    ddnn_collective_config cfg{}; // every member zero, then set by name
    cfg.workers = GetWorkerCount();
    cfg.rank = rank;
    cfg.servers = m_parameterServers;
    cfg.dedicated = m_serverHosts == DEDICATED ? 1 : 0;
    cfg.group_distribution = m_distribution == MULTICAST ? 1 : 0;
    return cfg;
}

uint64_t
TrainingJob::GetExpectedBytesSent(uint32_t rank, uint64_t bufferBytes) const
{
    const ddnn_collective_config cfg = GetCollectiveConfig(rank);
    return m_collective->bytes_sent_by(&cfg, bufferBytes);
}

Time
TrainingJob::GetIdealCollectiveTime(uint64_t bufferBytes, DataRate rate, Time latency) const
{
    uint64_t busiest = 0;
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        busiest = std::max(busiest, GetExpectedBytesSent(r, bufferBytes));
    }
    const ddnn_collective_config cfg = GetCollectiveConfig(0);
    return Seconds(busiest * 8.0 / rate.GetBitRate())
           + latency * static_cast<int64_t>(m_collective->sequential_steps(&cfg));
}

bool
TrainingJob::GetBarrier() const
{
    return m_barrier;
}

TrainingJob::FirstPass
TrainingJob::GetFirstPass() const
{
    return m_firstPass;
}

uint32_t
TrainingJob::GetIterations() const
{
    return m_iterations;
}

Time
TrainingJob::GetStopTime() const
{
    return m_stopTime;
}

bool
TrainingJob::IsFinished() const
{
    return !m_workers.empty() && m_finishedWorkers == m_localWorkers;
}

std::vector<TrainingJob::Record>
TrainingJob::GetRecords() const
{
    std::vector<Record> records;
    const ddnn_syncer* queue = Queue();
    for (size_t i = 0; queue && i < ddnn_syncer_record_count(queue); ++i)
    {
        const ddnn_syncer_record* r = ddnn_syncer_record_at(queue, i);
        Record record{r->iteration, r->buffer, r->ready_ns, r->start_ns, r->end_ns, {}, 0, 0};
        if (auto found = m_policyRecords.find({r->iteration, r->buffer});
            found != m_policyRecords.end())
        {
            record.deadline_ns = found->second.first;
            record.nsAtTos = found->second.second;
        }
        if (auto found = m_aggregationEnds.find({r->iteration, r->buffer});
            found != m_aggregationEnds.end())
        {
            record.aggregation_end_ns = found->second;
        }
        records.push_back(record);
    }
    return records;
}

std::map<std::pair<uint32_t, uint32_t>, uint64_t>
TrainingJob::GetAggregationEnds() const
{
    return m_aggregationEnds;
}

int
TrainingJob::NotifyReady(uint32_t rank, uint32_t iteration, uint32_t buffer)
{
    NS_LOG_FUNCTION(this << rank << iteration << buffer);
    if (m_messenger)
    {
        m_messenger->Report(rank, SyncMessenger::READY, iteration, buffer);
        return DDNN_OK;
    }
    int rc = ddnn_syncer_on_ready(
        m_syncer, rank, iteration, buffer, Simulator::Now().GetNanoSeconds());
    Check(rc, "ddnn_syncer_on_ready");
    return rc;
}

int
TrainingJob::NotifyDone(uint32_t rank)
{
    NS_LOG_FUNCTION(this << rank);
    if (rank >= GetWorkerCount())
    {
        return DDNN_OK; // a dedicated server is through once it sent its update: not synced
    }
    if (m_messenger)
    {
        // The worker has the buffer's result and goes on (Horovod's op completes on each
        // worker); the coordinator hears of it for the next buffer's sake.
        const auto [iteration, buffer] = m_workers[rank]->GetCurrentBuffer();
        m_messenger->Report(rank, SyncMessenger::DONE, iteration, buffer);
        return m_workers[rank]->BufferDone(iteration, buffer);
    }
    int rc = ddnn_syncer_on_done(m_syncer, rank, Simulator::Now().GetNanoSeconds());
    Check(rc, "ddnn_syncer_on_done");
    return rc;
}

const ddnn_syncer*
TrainingJob::Queue() const
{
    return m_nsync ? ddnn_nsync_queue(m_nsync) : m_syncer;
}

void
TrainingJob::OpenSync()
{
    std::vector<Ptr<Node>> nodes;
    for (const auto& worker : m_workers)
    {
        nodes.push_back(worker->GetNode());
    }
    int tos = GetPriorityTos();
    UintegerValue transportTos;
    if (tos < 0 && GetWorker(0)->GetTransport()->GetAttributeFailSafe("Tos", transportTos))
    {
        tos = transportTos.Get();
    }
    m_messenger->SetAttribute("Tos", UintegerValue(tos < 0 ? 0x10 : tos));
    m_messenger->Open(
        nodes, std::vector<Ipv4Address>(m_addresses.begin(), m_addresses.begin() + nodes.size()));
}

void
TrainingJob::SyncReportArrived(uint32_t worker,
                               SyncMessenger::Kind kind,
                               uint32_t iteration,
                               uint32_t buffer)
{
    int64_t next = DDNN_NSYNC_NEVER;
    const ddnn_nsync_report report
        = kind == SyncMessenger::READY ? DDNN_NSYNC_READY : DDNN_NSYNC_DONE;
    if (Check(ddnn_nsync_on_report(m_nsync,
                                   Simulator::Now().GetNanoSeconds(),
                                   worker,
                                   report,
                                   iteration,
                                   buffer,
                                   &next),
              "ddnn_nsync_on_report"))
    {
        WakeCoordinatorAt(next);
    }
}

void
TrainingJob::WakeCoordinatorAt(int64_t nextNs)
{
    if (nextNs == DDNN_NSYNC_NEVER || !m_syncWake.IsExpired())
    {
        return; // the wake-up pending is for the same cycle's end
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_syncWake = Simulator::Schedule(
        NanoSeconds(std::max<int64_t>(nextNs - now, 0)), &TrainingJob::WakeCoordinator, this);
}

void
TrainingJob::WakeCoordinator()
{
    int64_t next = DDNN_NSYNC_NEVER;
    if (Check(ddnn_nsync_wake(m_nsync, Simulator::Now().GetNanoSeconds(), &next),
              "ddnn_nsync_wake"))
    {
        WakeCoordinatorAt(next);
    }
}

int
TrainingJob::CoordinatorStart(void* ctx, uint32_t worker, uint32_t iteration, uint32_t buffer)
{
    auto job = static_cast<TrainingJob*>(ctx);
    if (worker == 0)
    {
        // The coordinator sends its responses in a row, worker 0's first: the buffer starts.
        if (int rc = job->BeginCollective(iteration, buffer); rc < 0)
        {
            return rc;
        }
    }
    job->m_messenger->Start(worker, iteration, buffer);
    return DDNN_OK;
}

int
TrainingJob::CoordinatorFinished(void* ctx, uint32_t iteration, uint32_t buffer)
{
    static_cast<TrainingJob*>(ctx)->EndCollective(iteration, buffer);
    return DDNN_OK;
}

void
TrainingJob::SyncStartArrived(uint32_t worker, uint32_t iteration, uint32_t buffer)
{
    if (worker < m_workers.size())
    {
        m_workers[worker]->StartBuffer(iteration, buffer, m_model->GetBuffer(buffer).bytes);
    }
}

void
TrainingJob::SyncFailed(const std::string& what)
{
    Fail(0, what);
}

uint64_t
TrainingJob::GetSyncBytes() const
{
    return m_messenger ? m_messenger->GetBytesSent() : 0;
}

TrainingJob::SyncerKind
TrainingJob::GetSyncer() const
{
    return m_syncerKind;
}

void
TrainingJob::NotifyFinished(uint32_t rank)
{
    NS_LOG_FUNCTION(this << rank);
    NS_LOG_INFO("worker " << rank << " finished training (" << m_finishedWorkers + 1 << " of "
                          << m_localWorkers << " in this process)");
    if (++m_finishedWorkers == m_localWorkers)
    {
        m_stallCheck.Cancel();
        for (uint32_t r = 0; r < GetRankCount(); ++r)
        {
            GetRank(r)->MarkJobFinished();
        }
        for (uint32_t r = 0; r < GetRankCount(); ++r)
        {
            GetRank(r)->CloseTransport();
        }
        if (m_messenger)
        {
            m_messenger->Close();
        }
    }
}

void
TrainingJob::NotifyProgress()
{
    ++m_progress;
    // The watchdog runs from the job's first activity until it finishes.
    if (m_stallCheck.IsExpired() && !IsFinished() && m_failure.empty())
    {
        m_progressAtLastCheck = m_progress;
        m_stallCheck = Simulator::Schedule(m_stallTimeout, &TrainingJob::CheckStall, this);
    }
}

void
TrainingJob::NotifyDelivered(uint64_t bytes)
{
    m_running.bytesDone += bytes;
}

void
TrainingJob::NotifyAggregationChunk(uint32_t iteration, uint32_t buffer)
{
    m_aggregationEnds[{iteration, buffer}] = Simulator::Now().GetNanoSeconds();
}

int
TrainingJob::ResolveTos(int tos) const
{
    UintegerValue own;
    if (tos >= 0 || GetRankCount() == 0
        || !GetWorker(0)->GetTransport()->GetAttributeFailSafe("Tos", own))
    {
        return tos;
    }
    return GetPriorityTos() >= 0 ? GetPriorityTos() : static_cast<int>(own.Get());
}

void
TrainingJob::AccountTosTime(uint64_t nowNs)
{
    const int tos = ResolveTos(m_running.tos);
    if (tos >= 0 && !m_running.stepTos.empty())
    {
        m_running.nsAtTos[static_cast<uint8_t>(tos)] += nowNs - m_running.sinceNs;
    }
    m_running.sinceNs = nowNs;
}

int
TrainingJob::GetAckTos() const
{
    return m_bufferPriority ? m_bufferPriority->GetAckTos() : -1;
}

uint64_t
TrainingJob::GetBusiestBytes(uint32_t buffer) const
{
    uint64_t busiest = 0;
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        busiest = std::max(busiest, GetExpectedBytesSent(r, m_model->GetBuffer(buffer).bytes));
    }
    return busiest;
}

int
TrainingJob::GetStepTos(uint32_t buffer, uint32_t step)
{
    // The coordinator's process keeps the collective in progress (BeginCollective).
    return GetRankCount() == 0 || IsLocalNode(GetRank(0)->GetNode()) ? GetStepTos(step)
                                                                     : GetBufferTos(buffer);
}

BufferPriorityPolicy::Progress
TrainingJob::GetProgress(uint32_t step, int currentTos) const
{
    BufferPriorityPolicy::Progress progress{};
    progress.iteration = m_running.iteration;
    progress.buffer = m_running.buffer;
    progress.step = step;
    progress.nowNs = Simulator::Now().GetNanoSeconds();
    progress.startedNs = m_running.startedNs;
    progress.deadlineNs = m_running.deadlineNs;
    progress.bytesTotal = m_running.bytesTotal;
    progress.bytesDone = std::min(m_running.bytesDone, m_running.bytesTotal);
    progress.busiestBytes = m_running.busiestBytes;
    progress.backlogBusiestBytes = m_running.backlogBusiestBytes;
    progress.iterationNs = m_model->GetComputeTime().GetNanoSeconds();
    progress.currentTos = currentTos;
    return progress;
}

int
TrainingJob::GetStepTos(uint32_t step)
{
    if (!m_bufferPriority)
    {
        return -1;
    }
    if (step < m_running.stepTos.size())
    {
        return m_running.stepTos[step];
    }
    // Steps are decided in order, once each; a step first sent before an earlier one is
    // decided (not seen in the shipped collectives) decides those too.
    int tos = m_running.tos;
    while (m_running.stepTos.size() <= step)
    {
        tos = m_bufferPriority->Decide(m_model, GetProgress(m_running.stepTos.size(), tos));
        m_running.stepTos.push_back(tos);
    }
    if (step == 0)
    {
        m_running.tos = tos; // the first step's ToS holds from the collective's start
    }
    else if (tos != m_running.tos)
    {
        ChangeRunningTos(step, tos, Simulator::Now().GetNanoSeconds());
    }
    ScheduleRecheck();
    return tos;
}

void
TrainingJob::ChangeRunningTos(uint32_t step, int tos, uint64_t nowNs)
{
    NS_LOG_INFO("buffer " << m_running.buffer << " of iteration " << m_running.iteration << ": ToS "
                          << m_running.tos << " -> " << tos << " from step " << step);
    m_priorityChangeTrace(m_running.iteration, m_running.buffer, step, m_running.tos, tos);
    AccountTosTime(nowNs);
    m_running.tos = tos;
}

void
TrainingJob::ScheduleRecheck()
{
    m_recheck.Cancel();
    if (m_running.stepTos.empty())
    {
        return;
    }
    const int64_t delay = m_bufferPriority->GetRecheckDelayNs(
        GetProgress(m_running.stepTos.size() - 1, m_running.tos));
    if (delay >= 0)
    {
        m_recheck = Simulator::Schedule(NanoSeconds(delay), &TrainingJob::Recheck, this);
    }
}

void
TrainingJob::Recheck()
{
    const uint32_t step = m_running.stepTos.size() - 1;
    const int tos = m_bufferPriority->Decide(m_model, GetProgress(step, m_running.tos));
    if (tos == m_running.tos)
    {
        ScheduleRecheck();
        return;
    }
    NS_LOG_INFO("buffer " << m_running.buffer << " of iteration " << m_running.iteration
                          << ": step " << step << " changes ToS in flight");
    ChangeRunningTos(step, tos, Simulator::Now().GetNanoSeconds());
    // Every step decided so far: a rank still to send in one of them sends at the new ToS.
    std::fill(m_running.stepTos.begin(), m_running.stepTos.end(), tos);
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        if (IsLocalNode(GetRank(r)->GetNode()))
        {
            GetRank(r)->GetTransport()->SetInFlightTos(tos);
        }
    }
    ScheduleRecheck();
}

int
TrainingJob::SyncerStart(void* ctx, uint32_t iteration, uint32_t buffer)
{
    auto job = static_cast<TrainingJob*>(ctx);
    if (int rc = job->BeginCollective(iteration, buffer); rc < 0)
    {
        return rc;
    }
    for (auto& worker : job->m_workers)
    {
        if (int rc = worker->StartBuffer(iteration, buffer, job->m_model->GetBuffer(buffer).bytes);
            rc < 0)
        {
            return rc; // the worker ended the run and says why
        }
    }
    return DDNN_OK;
}

uint64_t
TrainingJob::GetCollectiveDeadlineNs(uint32_t iteration, uint32_t buffer) const
{
    uint64_t earliest = Simulator::Now().GetNanoSeconds();
    bool found = false;
    for (const auto& worker : m_workers)
    {
        uint64_t deadline = 0;
        if (worker->GetBufferDeadline(iteration, buffer, &deadline))
        {
            earliest = found ? std::min(earliest, deadline) : deadline;
            found = true;
        }
    }
    return earliest;
}

int
TrainingJob::BeginCollective(uint32_t iteration, uint32_t buffer)
{
    TrainingJob* job = this;
    uint64_t bytes = job->m_model->GetBuffer(buffer).bytes;
    const uint64_t deadlineNs = GetCollectiveDeadlineNs(iteration, buffer);
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        if (IsLocalNode(GetRank(r)->GetNode()))
        {
            GetRank(r)->GetTransport()->SetBufferDeadline(static_cast<int64_t>(deadlineNs));
        }
    }
    if (job->m_bufferPriority)
    {
        Running running;
        running.iteration = iteration;
        running.buffer = buffer;
        running.startedNs = Simulator::Now().GetNanoSeconds();
        running.sinceNs = running.startedNs;
        running.deadlineNs = deadlineNs;
        for (uint32_t r = 0; r < job->GetRankCount(); ++r)
        {
            running.bytesTotal += job->GetExpectedBytesSent(r, bytes);
        }
        running.busiestBytes = job->GetBusiestBytes(buffer);
        // Buffers are numbered in backward order: those above this one hold lower layers,
        // which the next forward pass needs first.
        std::vector<bool>& ended = job->m_ended[iteration];
        ended.resize(job->m_model->GetBufferCount(), false);
        for (uint32_t b = job->m_barrier ? 0 : buffer + 1; b < ended.size(); ++b)
        {
            running.backlogBusiestBytes += b != buffer && !ended[b] ? job->GetBusiestBytes(b) : 0;
        }
        job->m_running = std::move(running);
    }
    NS_LOG_INFO("collective start: buffer "
                << buffer << " of iteration " << iteration << ", " << bytes << " bytes"
                << (job->GetBufferTos(buffer) < 0
                        ? std::string()
                        : ", ToS " + std::to_string(job->GetBufferTos(buffer)))
                << " (" << ddnn_syncer_queued(job->Queue()) << " more queued, syncer "
                << (job->m_policy == FIFO ? "fifo" : "priority") << ")");
    job->m_bufferStartTrace(iteration, buffer, bytes);
    // Dedicated servers first: every rank is started before any byte can arrive anyway.
    for (auto& server : job->m_servers)
    {
        if (int rc = server->StartBuffer(iteration, buffer, bytes); rc < 0)
        {
            return rc;
        }
    }
    return DDNN_OK;
}

int
TrainingJob::SyncerFinished(void* ctx, uint32_t iteration, uint32_t buffer)
{
    auto job = static_cast<TrainingJob*>(ctx);
    job->EndCollective(iteration, buffer);
    for (auto& worker : job->m_workers)
    {
        if (int rc = worker->BufferDone(iteration, buffer); rc < 0)
        {
            return rc;
        }
    }
    return DDNN_OK;
}

void
TrainingJob::EndCollective(uint32_t iteration, uint32_t buffer)
{
    TrainingJob* job = this;
    NS_LOG_INFO("collective end: buffer " << buffer << " of iteration " << iteration);
    if (job->m_bufferPriority)
    {
        job->m_recheck.Cancel();
        job->AccountTosTime(Simulator::Now().GetNanoSeconds());
        job->m_bufferPriority->CollectiveEnded(
            job->GetProgress(job->m_running.stepTos.size(), job->m_running.tos),
            job->m_running.nsAtTos);
        job->m_policyRecords[{iteration, buffer}]
            = {job->m_running.deadlineNs, job->m_running.nsAtTos};
        std::vector<bool>& ended = job->m_ended[iteration];
        ended[buffer] = true;
        if (std::find(ended.begin(), ended.end(), false) == ended.end())
        {
            job->m_ended.erase(iteration);
        }
    }
    job->m_bufferEndTrace(iteration, buffer, job->m_model->GetBuffer(buffer).bytes);
}

void
TrainingJob::CheckStall()
{
    if (IsFinished())
    {
        return;
    }
    bool computing = false; // a long compute step (a slow straggler) is not a stall
    for (const auto& worker : m_workers)
    {
        computing = computing || worker->IsComputing();
    }
    if (m_progress == m_progressAtLastCheck && !computing)
    {
        std::ostringstream os;
        os << "training stalled: no progress for " << m_stallTimeout.As(Time::MS) << " at "
           << Simulator::Now().As(Time::S) << " (StallTimeout)\n"
           << Describe();
        EndRun(os.str());
        return;
    }
    m_progressAtLastCheck = m_progress;
    m_stallCheck = Simulator::Schedule(m_stallTimeout, &TrainingJob::CheckStall, this);
}

std::string
TrainingJob::Describe() const
{
    std::ostringstream os;
    uint32_t iteration = 0;
    uint32_t buffer = 0;
    const ddnn_syncer* queue = Queue();
    if (queue && ddnn_syncer_in_flight(queue, &iteration, &buffer))
    {
        os << "  syncer: buffer " << buffer << " of iteration " << iteration << " in flight, "
           << ddnn_syncer_queued(queue) << " queued\n";
    }
    else if (queue)
    {
        os << "  syncer: nothing in flight, " << ddnn_syncer_queued(queue)
           << " buffer(s) waiting to be ready on every worker\n";
    }
    for (uint32_t r = 0; r < m_workers.size(); ++r)
    {
        os << "  worker " << r << ": " << m_workers[r]->Describe();
        if (queue && ddnn_syncer_in_flight(queue, nullptr, nullptr))
        {
            os << (ddnn_syncer_worker_done(queue, r) ? " (done with the buffer)" : "");
        }
        os << (r + 1 < GetRankCount() ? "\n" : "");
    }
    for (uint32_t k = 0; k < m_servers.size(); ++k)
    {
        os << "  parameter server " << k << ": " << m_servers[k]->Describe()
           << (k + 1 < m_servers.size() ? "\n" : "");
    }
    return os.str();
}

void
TrainingJob::Fail(uint32_t rank, const std::string& what)
{
    std::ostringstream os;
    os << RankName(rank) << ": " << what << " at " << Simulator::Now().As(Time::S) << "\n"
       << Describe();
    EndRun(os.str());
}

std::string
TrainingJob::RankName(uint32_t rank) const
{
    return rank < GetWorkerCount() ? "worker " + std::to_string(rank)
                                   : "parameter server " + std::to_string(rank - GetWorkerCount());
}

} // namespace ns3
