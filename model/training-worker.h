/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_WORKER_H
#define TRAINING_WORKER_H

#include "partition-transport.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

struct ddnn_training;
struct ddnn_collective;

namespace ns3
{

class TrainingJob;

/**
 * \ingroup ddnn
 * \brief One worker of a training job: the Application that hosts the C core.
 *
 * It runs the core's training loop (forward and backward compute, one task at a time) and,
 * when the job's syncer starts a fusion buffer, the job's collective (ring-allreduce by
 * default, TrainingJob's Collective). A TrainingWorker whose rank is the job's worker count
 * or more is a dedicated parameter-server host (TrainingJob's ParameterServerHosts Dedicated):
 * it runs no training loop, only its shard's part of each buffer's collective. The bytes the
 * collective sends travel through the worker's PartitionTransport (TCP connections or the ideal
 * transport).
 */
class TrainingWorker : public Application
{
  public:
    static TypeId GetTypeId();
    TrainingWorker();
    ~TrainingWorker() override;

    /** Joins `job` as rank `rank` (a worker, or from N on a dedicated parameter server),
     * moving its bytes through `transport`. */
    void Setup(Ptr<TrainingJob> job, uint32_t rank, Ptr<PartitionTransport> transport);

    uint32_t GetRank() const;
    /** Whether this rank is a dedicated parameter-server host (it computes nothing). */
    bool IsDedicatedServer() const;
    Ptr<PartitionTransport> GetTransport() const;
    /** The job it belongs to. */
    Ptr<TrainingJob> GetJob() const;
    uint32_t GetIterationsCompleted() const;
    /** Bytes handed to the transport during iteration `iteration`. */
    uint64_t GetBytesSent(uint32_t iteration) const;
    /** Bytes received from other workers so far. */
    uint64_t GetBytesReceived() const;
    /** Fixes the jitter's random stream (ComputeJitter); returns the streams used (0 or 1). */
    int64_t AssignStreams(int64_t stream);
    /** What the worker does or waits for, on one line. */
    std::string Describe() const;
    /** Whether a compute step is under way (its end is scheduled: progress will come). */
    bool IsComputing() const;

    /** Called by the job's syncer. */
    int StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes);
    int BufferDone(uint32_t iteration, uint32_t buffer);
    /** From now on a closing path is no failure. */
    void MarkJobFinished();
    void CloseTransport();

    /** (worker, iteration) */
    typedef void (*IterationTracedCallback)(uint32_t worker, uint32_t iteration);
    /** (worker, iteration, layer, backward, duration) */
    typedef void (*LayerComputeTracedCallback)(
        uint32_t worker, uint32_t iteration, uint32_t layer, bool backward, Time duration);
    /** (worker, iteration, buffer) */
    typedef void (*BufferTracedCallback)(uint32_t worker, uint32_t iteration, uint32_t buffer);
    /** (worker, iteration, buffer, step, partition, bytes) */
    typedef void (*PartitionTracedCallback)(uint32_t worker,
                                            uint32_t iteration,
                                            uint32_t buffer,
                                            uint32_t step,
                                            uint32_t partition,
                                            uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    // C core callbacks
    static int CoreCompute(void* ctx, uint64_t ns);
    static int CoreBufferReady(void* ctx, uint32_t iteration, uint32_t buffer);
    static int CoreIterationStart(void* ctx, uint32_t iteration);
    static int CoreIterationEnd(void* ctx, uint32_t iteration);
    static int CoreFinished(void* ctx);
    static int CoreSend(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
    static int CoreReceived(
        void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
    static int CoreCollectiveDone(void* ctx);

    void ComputeDone();
    /** On a core error, ends the job's run (TrainingJob::Fail) and returns false. */
    bool Check(int rc, const char* call);
    /** The transport's receive and failure callbacks. */
    void Receive(uint32_t from, uint64_t bytes);
    void TransportFailed(const std::string& what);
    /** Sets the transport's callbacks and opens the paths to the collective's peers. */
    void OpenTransport();
    /** The peers of this rank's collective, as the transport needs them. */
    std::vector<PartitionTransport::Peer> Peers(bool sendTo) const;

    // attributes
    double m_computeScale;                     //!< a straggler's slowness
    Ptr<RandomVariableStream> m_computeJitter; //!< per-iteration relative change, or none
    double m_iterationFactor{1.0};             //!< 1 + this iteration's jitter

    // wiring
    Ptr<TrainingJob> m_job;
    uint32_t m_rank{0};
    Ptr<PartitionTransport> m_transport;

    // C core
    ddnn_training* m_training{nullptr};
    ddnn_collective* m_collective{nullptr};
    uint32_t m_bufferIteration{0}; //!< the buffer the collective runs
    uint32_t m_buffer{0};
    EventId m_computeEvent;

    bool m_jobFinished{false};
    std::vector<uint64_t> m_bytesSent; // per iteration
    uint64_t m_bytesReceived{0};

    TracedCallback<uint32_t, uint32_t> m_iterationStartTrace;
    TracedCallback<uint32_t, uint32_t> m_iterationEndTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, bool, Time> m_layerComputeTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_bufferReadyTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t> m_partitionSentTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>
        m_partitionReceivedTrace;
};

} // namespace ns3

#endif /* TRAINING_WORKER_H */
