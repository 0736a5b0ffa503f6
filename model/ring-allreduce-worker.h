/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALLREDUCE_WORKER_H
#define RING_ALLREDUCE_WORKER_H

#include "ddnn-ring.h"
#include "ddnn-training.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class TrainingJob;

/**
 * \ingroup ddnn
 * \brief One worker of a ring-allreduce training job.
 *
 * Computes forward and backward passes (the C core's training loop) and, when
 * the job's syncer starts a fusion buffer, runs the ring-allreduce partition
 * engine over one TCP connection to its right neighbour and one accepted from
 * its left. The sending socket is filled from its send-space callback in
 * chunks of at most SendChunkBytes, as BulkSendApplication does, so the TCP
 * send buffer stays small. Both sockets use the IP ToS attribute, so
 * PfifoFast bands apply at the host and, through the IP header, at the switch.
 *
 * With Transport=Ideal no packets are sent: a partition of B bytes reaches the
 * right neighbour after B*8/IdealDataRate (one send at a time) plus
 * IdealStepLatency, which makes an allreduce of S bytes over N workers take
 * 2(N-1)/N * S / rate plus 2(N-1) step latencies (thesis eq. 4.1).
 */
class RingAllreduceWorker : public Application
{
  public:
    /** How partitions travel. */
    enum TransportKind
    {
        TCP,  //!< real TCP connections over the simulated network
        IDEAL //!< analytic: rate and per-step latency, no packets
    };

    static TypeId GetTypeId();
    RingAllreduceWorker();
    ~RingAllreduceWorker() override;

    /**
     * Joins a job as worker `rank`, sending to `rightPeer` (an InetSocketAddress
     * of the right neighbour's listening port; unused with the ideal transport).
     */
    void Setup(Ptr<TrainingJob> job, uint32_t rank, const Address& rightPeer);

    uint32_t GetRank() const;
    TransportKind GetTransport() const;
    uint32_t GetIterationsCompleted() const;
    /** Bytes handed to the transport during iteration `iteration`. */
    uint64_t GetBytesSent(uint32_t iteration) const;
    /** Bytes received from the left neighbour so far. */
    uint64_t GetBytesReceived() const;
    /** Fixes the jitter's random stream (ComputeJitter); returns the streams used (0 or 1). */
    int64_t AssignStreams(int64_t stream);
    /** What the worker does or waits for, on one line. */
    std::string Describe() const;

    /** Called by the job's syncer. */
    int StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes);
    int BufferDone(uint32_t iteration, uint32_t buffer);
    void MarkJobFinished();
    void CloseConnections();

    /** (worker, iteration) */
    typedef void (*IterationTracedCallback)(uint32_t worker, uint32_t iteration);
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
    static int CoreSend(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes);
    static int CoreReceived(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes);
    static int CoreRingDone(void* ctx);

    void ComputeDone();
    /** On a core error, ends the job's run (TrainingJob::Fail) and returns false. */
    bool Check(int rc, const char* call);
    void Receive(uint64_t bytes);
    void SendIdeal(uint64_t bytes);

    // TCP transport
    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void Accepted(Ptr<Socket> socket, const Address& from);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void HandleRead(Ptr<Socket> socket);
    void HandleClose(Ptr<Socket> socket);
    void Pump();

    // attributes
    uint16_t m_port;
    uint8_t m_tos;
    TransportKind m_transport;
    uint32_t m_chunkBytes;
    double m_computeScale;                     //!< a straggler's slowness
    Ptr<RandomVariableStream> m_computeJitter; //!< per-iteration relative change, or none
    double m_iterationFactor{1.0};             //!< 1 + this iteration's jitter
    DataRate m_idealRate;
    Time m_idealLatency;

    // wiring
    Ptr<TrainingJob> m_job;
    uint32_t m_rank{0};
    Address m_rightPeer;
    Ptr<RingAllreduceWorker> m_right; // ideal transport

    // C core
    ddnn_training* m_training{nullptr};
    ddnn_ring* m_ring{nullptr};
    uint32_t m_ringIteration{0};
    uint32_t m_ringBuffer{0};
    bool m_computing{false};
    EventId m_computeEvent;

    // transport state
    Ptr<Socket> m_sendSocket;
    Ptr<Socket> m_listenSocket;
    Ptr<Socket> m_recvSocket;
    bool m_connected{false};
    bool m_jobFinished{false};
    uint64_t m_txPending{0}; // bytes handed to the transport, not yet to the socket
    Time m_idealBusyUntil;
    std::vector<uint64_t> m_bytesSent; // per iteration
    uint64_t m_bytesReceived{0};

    TracedCallback<uint32_t, uint32_t> m_iterationStartTrace;
    TracedCallback<uint32_t, uint32_t> m_iterationEndTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_bufferReadyTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t> m_partitionSentTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>
        m_partitionReceivedTrace;
};

} // namespace ns3

#endif /* RING_ALLREDUCE_WORKER_H */
