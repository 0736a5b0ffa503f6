/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_JOB_H
#define TRAINING_JOB_H

#include "aggregation-lease.h"
#include "buffer-priority-policy.h"
#include "ddnn-version.h"
#include "dnn-model.h"
#include "sync-messenger.h"
#include "tenant-priority.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <set>
#include <string>
#include <vector>

struct ddnn_syncer;
struct ddnn_nsync;
struct ddnn_collective_ops;
struct ddnn_collective_config;

namespace ns3
{

class CollectiveRank;
class ParameterServerHost;
class TrainingWorker;

/**
 * \ingroup ddnn
 * \brief One distributed training job: its DNN model, its workers, and the
 * global syncer that starts each fusion buffer's collective (Collective:
 * ring-allreduce by default) on all workers at once.
 *
 * The syncer holds the transmission queue (FIFO or priority by lowest layer)
 * because a buffer can only start once it is ready on every worker and every
 * worker has finished the previous one, as Horovod's coordinator does. Status
 * messages between workers and the syncer are not simulated.
 *
 * A stall watchdog ends the run with a DdnnError describing what every worker
 * waits for when nothing progresses for StallTimeout of simulated time while no worker
 * computes (a compute step of any length ends in progress).
 */
class TrainingJob : public Object
{
  public:
    /** Where the parameter servers of the parameter-server collective run. */
    enum ParameterServerHosts
    {
        CO_LOCATED, //!< on workers 0..P-1, which also compute
        DEDICATED   //!< on P nodes of their own that do not compute (ranks N..N+P-1)
    };

    /** How the distribution phase reaches the workers. */
    enum Distribution
    {
        UNICAST,  //!< a copy to each worker
        MULTICAST //!< one send to the group (the transport's multicast)
    };

    /** How the workers sync (the Syncer attribute). */
    enum SyncerKind
    {
        INSTANT, //!< the thesis's global syncer: every worker starts a buffer at once, for free
        NETWORK  //!< Horovod's coordinator on worker 0, messages over the network, a cycle
    };

    /** What iteration 0 computes first (the FirstPass attribute). */
    enum FirstPass
    {
        FORWARD, //!< iteration 0 is whole: forward, then backward
        BACKWARD //!< iteration 0 starts with the backward pass, as the thesis code's workers
    };

    /** Transmission-queue policy. */
    enum QueuePolicy
    {
        FIFO,    //!< buffers start in the order they became ready
        PRIORITY //!< lowest layer index first
    };

    /** One buffer's collective, with times in ns (end_ns is 0 while it runs). */
    struct Record
    {
        uint32_t iteration;
        uint32_t buffer;
        uint64_t ready_ns; //!< ready on the last worker
        uint64_t start_ns;
        uint64_t end_ns;
        /** With a BufferPriority policy: ns the collective spent at each ToS; else empty. */
        std::map<uint8_t, uint64_t> nsAtTos;
        /** With a BufferPriority policy: when the next forward pass first needed the buffer
         * (the earliest worker's deadline); else 0. */
        uint64_t deadline_ns;
        /** When the last chunk of the aggregation phase arrived (a parameter server holds
         * every push, a ring's reduce-scatter is through): the distribution phase takes the
         * rest. 0 when the collective reports no phases or has not finished aggregating. */
        uint64_t aggregation_end_ns;
    };

    static TypeId GetTypeId();
    TrainingJob();
    ~TrainingJob() override;

    /**
     * Throws DdnnError unless `workers` workers and `servers` dedicated parameter-server hosts
     * fit Collective, ParameterServers and ParameterServerHosts: at least 2 workers; co-located,
     * at most N servers and no server hosts; dedicated, a collective that runs on server ranks
     * of their own (parameter-server) and exactly P server hosts.
     */
    void CheckLayout(uint32_t workers, uint32_t servers) const;

    /**
     * Sets the model and the workers (rank = position) with their nodes' addresses, and with
     * ParameterServerHosts Dedicated the P parameter-server hosts (ranks N..N+P-1) with theirs;
     * called once by TrainingHelper. Throws DdnnError when Collective names no registered
     * collective or CheckLayout fails.
     */
    void Setup(Ptr<DnnModel> model,
               const std::vector<Ptr<TrainingWorker>>& workers,
               const std::vector<Ipv4Address>& addresses,
               const std::vector<Ptr<ParameterServerHost>>& servers = {},
               const std::vector<Ipv4Address>& serverAddresses = {});

    Ptr<DnnModel> GetModel() const;
    /** The workers N (they compute), without dedicated parameter servers. */
    uint32_t GetWorkerCount() const;
    /** Every rank of the collective: the N workers and the dedicated parameter servers. */
    uint32_t GetRankCount() const;
    /** The application of `rank`, 0..GetRankCount()-1: a worker, from N on a dedicated
     * parameter-server host. */
    Ptr<CollectiveRank> GetRank(uint32_t rank) const;
    /** Worker `worker`, 0..GetWorkerCount()-1. */
    Ptr<TrainingWorker> GetWorker(uint32_t worker) const;
    /** The address of `rank`'s node, 0..GetRankCount()-1. */
    Ipv4Address GetRankAddress(uint32_t rank) const;
    DDNN_DEPRECATED("use GetRankAddress(rank)")
    Ipv4Address GetWorkerAddress(uint32_t rank) const;
    /** Dedicated parameter-server host `shard` (0..P-1), or null when they are co-located. */
    Ptr<ParameterServerHost> GetParameterServer(uint32_t shard) const;
    /** ParameterServers (parameter-server collective). */
    uint32_t GetParameterServers() const;
    /** ParameterServerHosts. */
    ParameterServerHosts GetParameterServerHosts() const;
    /** Bytes rank `rank` sends in one collective of a buffer of `bufferBytes` (after Setup). */
    uint64_t GetExpectedBytesSent(uint32_t rank, uint64_t bufferBytes) const;
    /**
     * Ideal time of one collective of `bufferBytes`: the busiest rank's bytes at `rate`
     * plus one `latency` per transfer of the longest chain (ring-allreduce: thesis eq. 4.1
     * plus 2(N-1) latencies). Only senders' links count: the N pushes converging on one
     * parameter server are not, so for P < N this is below what a network achieves.
     */
    Time GetIdealCollectiveTime(uint64_t bufferBytes, DataRate rate, Time latency) const;
    /**
     * The ToS buffer `buffer` starts at (BufferPriority's GetTos), or -1 for the transport's
     * own.
     */
    int GetBufferTos(uint32_t buffer) const;
    /**
     * The ToS of step `step` of the collective in progress, or -1 for the transport's own:
     * BufferPriority decides each step once, the first time a rank sends in it, so every rank
     * sends the step's chunk at the same ToS. A policy with a recheck delay
     * (BufferPriorityPolicy::GetRecheckDelayNs) may change the latest step's ToS in flight:
     * every rank's transport then moves what it still holds of the collective to the new ToS.
     */
    int GetStepTos(uint32_t step);
    /**
     * The same for a rank of `buffer` in a process of a distributed run that does not run the
     * coordinator (worker 0): a policy that DecidesFromProgress is refused there, so the
     * buffer's own ToS (GetBufferTos) is the step's; in the coordinator's process,
     * GetStepTos(step).
     */
    int GetStepTos(uint32_t buffer, uint32_t step);
    /** The ToS of the ACKs of the job's incoming data (BufferPriority's), or -1: the transport's
     * own. */
    int GetAckTos() const;
    /** Priority: a priority's name, or empty. */
    std::string GetPriority() const;
    /** The ToS of Priority, or -1 when none is given (the transport's own Tos holds). */
    int GetPriorityTos() const;
    /** How the distribution phase reaches the workers (the Distribution attribute). */
    Distribution GetDistribution() const;
    /** The collective the job runs: Collective, or FallbackCollective after FallBack(). */
    std::string GetCollectiveName() const;
    /** Whether that collective's peer is the network (in-network-aggregation): the job then
     * needs the slots of the switch its workers share (AggregationHelper::Join). */
    bool AggregatesInNetwork() const;
    /** The switch's slots for the job (AggregationHelper::Join), before the simulation. */
    void SetAggregationLease(Ptr<const AggregationLease> lease);
    /** The lease given, or null. */
    Ptr<const AggregationLease> GetAggregationLease() const;
    /**
     * Runs FallbackCollective instead of Collective, because of `why` (one line): the switch
     * cannot hold the job's slots. A DdnnError when FallbackCollective is unknown, needs the
     * network too, or does not fit the job's layout. Before the simulation.
     */
    void FallBack(const std::string& why);
    /** "COLLECTIVE fell back to FALLBACK: why" after FallBack(); else empty. */
    std::string GetFallback() const;
    /** The Syncer attribute. */
    SyncerKind GetSyncer() const;
    /** Syncer Network: the syncing messages' bytes over the network so far (TCP payload);
     * 0 with the instant syncer. */
    uint64_t GetSyncBytes() const;
    /**
     * Every ToS the job's packets carry (after Setup): its transports' (Priority or their Tos)
     * and those of BufferPriority; none on a transport without bands (the ideal one).
     */
    std::set<uint8_t> GetTosValues() const;
    bool GetBarrier() const;
    FirstPass GetFirstPass() const;
    uint32_t GetIterations() const;
    Time GetStopTime() const;
    /** Whether every worker has finished all its iterations (in a distributed run: every
     * worker of this process). */
    bool IsFinished() const;
    /** Collectives recorded so far (ready, start and end times in ns). */
    std::vector<Record> GetRecords() const;
    /** (iteration, buffer) -> when a rank of this process last received a chunk of the
     * aggregation phase (NotifyAggregationChunk), in ns: in a distributed run, the records'
     * aggregation_end_ns are the latest over the processes. */
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> GetAggregationEnds() const;

    /** Called by the ranks; return DDNN_OK or the syncer's error (the run is then ended). */
    int NotifyReady(uint32_t rank, uint32_t iteration, uint32_t buffer);
    int NotifyDone(uint32_t rank);
    void NotifyFinished(uint32_t rank);
    void NotifyProgress();
    /** A rank received `bytes` of the collective in progress. */
    void NotifyDelivered(uint64_t bytes);
    /** A rank received a whole chunk of the aggregation phase of (iteration, buffer)'s
     * collective. */
    void NotifyAggregationChunk(uint32_t iteration, uint32_t buffer);

    /**
     * Ends the run because of rank @p rank: keeps "worker R: WHAT at TIME" (or "parameter
     * server K") and what every rank waits for (the first failure only), silences the ranks and
     * stops the simulation. It does not throw: an exception through ns-3's event loop would
     * leak the event being processed and what it holds. Whoever runs the simulation calls
     * ThrowIfFailed() after Simulator::Run() (TrainingRecorder::Summarize does, and so do the
     * example programs).
     */
    void Fail(uint32_t rank, const std::string& what);
    /** Whether the run was ended by Fail() or by the stall watchdog. */
    bool HasFailed() const;
    /** Throws DdnnError with the failure that ended the run, if any. */
    void ThrowIfFailed() const;
    /** What every rank does or waits for, one line each. */
    std::string Describe() const;

    /** (iteration, buffer, bytes) */
    typedef void (*BufferTracedCallback)(uint32_t iteration, uint32_t buffer, uint64_t bytes);
    /** (iteration, buffer, step, ToS before, ToS from this step on) */
    typedef void (*PriorityChangeTracedCallback)(
        uint32_t iteration, uint32_t buffer, uint32_t step, int before, int after);

  protected:
    void DoDispose() override;

  private:
    // The C core's collective, for the ranks that run it (its types are private to the
    // module: no public method names them).
    friend class CollectiveRank;
    /** The registered collective Collective names; throws DdnnError naming the registered
     * ones when there is none. */
    const ddnn_collective_ops* FindCollective() const;
    /** The collective's operations table (after Setup). */
    const ddnn_collective_ops* GetCollective() const;
    /** The collective's configuration of `rank` (workers, rank, servers, dedicated). */
    ddnn_collective_config GetCollectiveConfig(uint32_t rank) const;

    /** Counts the workers of this process; throws DdnnError when the ranks are spread over
     * processes of a distributed run with what needs them in one (the instant syncer, a
     * BufferPriority that DecidesFromProgress, dedicated servers). */
    void CheckProcesses();
    void SetPriority(std::string name);
    /** TenantPriority::Check over the job's nodes, at the start of the simulation. */
    void CheckPriority();
    static int SyncerStart(void* ctx, uint32_t iteration, uint32_t buffer);
    static int SyncerFinished(void* ctx, uint32_t iteration, uint32_t buffer);
    /** The buffer's collective starts: records, the priority policy, dedicated servers. */
    int BeginCollective(uint32_t iteration, uint32_t buffer);
    /** Every worker finished the buffer: records and the priority policy's accounting. */
    void EndCollective(uint32_t iteration, uint32_t buffer);
    /** The syncer's queue (the instant syncer, or the one inside the coordinator). */
    const ddnn_syncer* Queue() const;
    // Syncer Network: the coordinator and the messages.
    void OpenSync();
    void SyncReportArrived(uint32_t worker,
                           SyncMessenger::Kind kind,
                           uint32_t iteration,
                           uint32_t buffer);
    void SyncStartArrived(uint32_t worker, uint32_t iteration, uint32_t buffer);
    void SyncFailed(const std::string& what);
    /** Calls WakeCoordinator at `nextNs` unless one is pending. */
    void WakeCoordinatorAt(int64_t nextNs);
    void WakeCoordinator();
    static int CoordinatorStart(void* ctx, uint32_t worker, uint32_t iteration, uint32_t buffer);
    static int CoordinatorFinished(void* ctx, uint32_t iteration, uint32_t buffer);
    void CheckStall();
    /** A core call made during the run: on an error, ends the run (see Fail). */
    bool Check(int rc, const char* call);
    /** Records the failure that ends the run and stops the simulation. */
    void EndRun(const std::string& failure);

    /** `tos`, or the transport's own ToS for -1. */
    int ResolveTos(int tos) const;
    /** Adds the time since the last change to the collective's ToS in progress. */
    void AccountTosTime(uint64_t nowNs);

    /** "worker R" or "parameter server K" (dedicated hosts). */
    std::string RankName(uint32_t rank) const;

    std::string m_collectiveName;
    std::string m_fallbackName;
    std::string m_fallback; //!< FallBack()'s line
    uint32_t m_aggregationSlots;
    uint32_t m_aggregationSlotBytes;
    Time m_aggregationTimeout;
    Ptr<const AggregationLease> m_aggregationLease;
    uint32_t m_parameterServers;
    ParameterServerHosts m_serverHosts;
    Distribution m_distribution;
    Ptr<BufferPriorityPolicy> m_bufferPriority;
    std::string m_priority;
    TenantPriority::CheckMode m_priorityCheckMode;
    EventId m_priorityCheck;
    QueuePolicy m_policy;
    bool m_barrier;
    FirstPass m_firstPass;
    uint32_t m_iterations;
    Time m_stopTime;
    Time m_stallTimeout;

    Ptr<DnnModel> m_model;
    const ddnn_collective_ops* m_collective{nullptr};
    std::vector<Ptr<TrainingWorker>> m_workers;
    std::vector<Ptr<ParameterServerHost>> m_servers; //!< dedicated (ranks N..)
    std::vector<Ipv4Address> m_addresses;            //!< of every rank
    ddnn_syncer* m_syncer{nullptr};                  //!< Syncer Instant
    ddnn_nsync* m_nsync{nullptr};                    //!< Syncer Network: the coordinator
    Ptr<SyncMessenger> m_messenger;                  //!< Syncer Network: the messages
    EventId m_syncWake;                              //!< the coordinator's next cycle end
    SyncerKind m_syncerKind;
    Time m_syncCycle;
    uint16_t m_syncPort;
    uint32_t m_finishedWorkers{0};
    uint32_t m_localWorkers{0}; //!< the workers of this process (all but in a distributed run)
    uint64_t m_progress{0};
    uint64_t m_progressAtLastCheck{0};
    EventId m_stallCheck;
    std::string m_failure; //!< why the run was ended early; empty while it goes on

    /** BufferPriority's view of the collective in progress, about to send step `step`. */
    BufferPriorityPolicy::Progress GetProgress(uint32_t step, int currentTos) const;
    /** Records that the collective in progress moves to `tos` from step `step` on. */
    void ChangeRunningTos(uint32_t step, int tos, uint64_t nowNs);
    /** Schedules Recheck when BufferPriority asks to decide the latest step again. */
    void ScheduleRecheck();
    /** Decides the latest step again; a new ToS applies to the bytes still queued. */
    void Recheck();
    EventId m_recheck;

    /** The collective in progress, as BufferPriority sees it. */
    struct Running
    {
        uint32_t iteration{0};
        uint32_t buffer{0};
        uint64_t startedNs{0};
        uint64_t deadlineNs{0};
        uint64_t bytesTotal{0};
        uint64_t bytesDone{0};
        uint64_t busiestBytes{0};
        uint64_t backlogBusiestBytes{0};
        std::vector<int> stepTos; //!< per step decided so far
        int tos{-1};              //!< the latest step's
        uint64_t sinceNs{0};      //!< when tos took effect
        std::map<uint8_t, uint64_t> nsAtTos;
    };
    Running m_running;
    /** BufferPriority: per iteration in progress, which buffers' collectives ended. */
    std::map<uint32_t, std::vector<bool>> m_ended;
    /** The busiest rank's bytes in one collective of `buffer`. */
    uint64_t GetBusiestBytes(uint32_t buffer) const;
    /** When the next forward pass first needs `buffer` of `iteration`: the earliest worker's
     * deadline, or now when no worker has one yet. */
    uint64_t GetCollectiveDeadlineNs(uint32_t iteration, uint32_t buffer) const;
    /** (iteration, buffer) -> the collective's deadline and time at each ToS. */
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, std::map<uint8_t, uint64_t>>>
        m_policyRecords;
    /** (iteration, buffer) -> when its aggregation phase's last chunk arrived. */
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_aggregationEnds;

    TracedCallback<uint32_t, uint32_t, uint64_t> m_bufferStartTrace;
    TracedCallback<uint32_t, uint32_t, uint64_t> m_bufferEndTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, int, int> m_priorityChangeTrace;
};

} // namespace ns3

#endif /* TRAINING_JOB_H */
