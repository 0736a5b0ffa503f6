/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_RANK_H
#define COLLECTIVE_RANK_H

#include "partition-transport.h"

#include "ns3/application.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

struct ddnn_collective;

namespace ns3
{

class TrainingJob;

/**
 * \ingroup ddnn
 * \brief One rank of a training job's collective: the Application on one node that runs the
 * rank's part of each fusion buffer's collective (TrainingJob's Collective) and moves its bytes
 * through its own PartitionTransport (TCP connections or the ideal transport).
 *
 * What else the rank does is its subclass's: a TrainingWorker (ranks 0..N-1) also trains, a
 * ParameterServerHost (ranks N..N+P-1, TrainingJob's ParameterServerHosts Dedicated) computes
 * nothing. TrainingHelper installs both.
 */
class CollectiveRank : public Application
{
  public:
    static TypeId GetTypeId();
    CollectiveRank();
    ~CollectiveRank() override;

    /** Joins `job` as rank `rank`, moving its bytes through `transport`. */
    void Setup(Ptr<TrainingJob> job, uint32_t rank, Ptr<PartitionTransport> transport);

    uint32_t GetRank() const;
    /** Whether this rank is a dedicated parameter-server host (it computes nothing). */
    bool IsDedicatedServer() const;
    Ptr<PartitionTransport> GetTransport() const;
    /** The job it belongs to. */
    Ptr<TrainingJob> GetJob() const;
    /** Iterations this rank trained; a rank that computes nothing trains none. */
    virtual uint32_t GetIterationsCompleted() const;
    /** Bytes handed to the transport during iteration `iteration`. */
    uint64_t GetBytesSent(uint32_t iteration) const;
    /** Bytes received from other ranks so far. */
    uint64_t GetBytesReceived() const;
    /** The buffer whose collective the rank runs, or ran last: (iteration, buffer). */
    std::pair<uint32_t, uint32_t> GetCurrentBuffer() const;
    /** What the rank does or waits for, on one line. */
    std::string Describe() const;

    /** Called by the job's syncer: runs this rank's part of the buffer's collective. */
    int StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes);
    /** From now on a closing path is no failure. */
    void MarkJobFinished();
    void CloseTransport();

    /** (rank, iteration, buffer, step, partition, bytes) */
    typedef void (*PartitionTracedCallback)(uint32_t rank,
                                            uint32_t iteration,
                                            uint32_t buffer,
                                            uint32_t step,
                                            uint32_t partition,
                                            uint64_t bytes);

  protected:
    void DoDispose() override;

    /** Creates the rank's collective and opens the paths to its peers; false on an error. */
    bool StartCollective();
    /** On a core error, ends the job's run (TrainingJob::Fail) and returns false. */
    bool Check(int rc, const char* call);
    /** What the rank computes or waits for, apart from the collective (Describe). */
    virtual std::string DescribeCompute() const = 0;

    /** Stops the paths; a subclass that overrides it calls it. */
    void StopApplication() override;

    Ptr<TrainingJob> m_job;
    uint32_t m_rank{0};

  private:
    // C core callbacks
    static int CoreSend(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
    static int CoreSendGroup(void* ctx,
                             const uint32_t* peers,
                             uint32_t count,
                             uint32_t step,
                             uint32_t chunk,
                             uint64_t bytes);
    /** Counts and traces `bytes` of a step's chunk leaving this rank, at the step's ToS. */
    void PrepareSend(uint32_t step, uint32_t chunk, uint64_t bytes);
    static int CoreReceived(
        void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes);
    static int CoreCollectiveDone(void* ctx);

    /** The transport's receive and failure callbacks. */
    void Receive(uint32_t from, uint64_t bytes);
    void TransportFailed(const std::string& what);
    /** Sets the transport's callbacks and opens the paths to the collective's peers. */
    void OpenTransport();
    /** The peers of this rank's collective, as the transport needs them. */
    std::vector<PartitionTransport::Peer> Peers(bool sendTo) const;

    Ptr<PartitionTransport> m_transport;
    ddnn_collective* m_collective{nullptr};
    uint32_t m_bufferIteration{0}; //!< the buffer the collective runs
    uint32_t m_buffer{0};

    bool m_jobFinished{false};
    std::vector<uint64_t> m_bytesSent; // per iteration
    uint64_t m_bytesReceived{0};
    /** Bytes that arrived before this rank started the buffer they belong to (a network
     * syncer's START reaches ranks at different times), per peer in order of arrival. */
    std::vector<std::pair<uint32_t, uint64_t>> m_early;

    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t> m_partitionSentTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>
        m_partitionReceivedTrace;
};

} // namespace ns3

#endif /* COLLECTIVE_RANK_H */
