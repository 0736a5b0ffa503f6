/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-allreduce-worker.h"

#include "ddnn-exception.h"
#include "ns3-compat.h"
#include "tcp-setup-check.h"
#include "tenant-tag.h"
#include "training-job.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllreduceWorker");
NS_OBJECT_ENSURE_REGISTERED(RingAllreduceWorker);

TypeId
RingAllreduceWorker::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RingAllreduceWorker")
              .SetParent<Application>()
              .SetGroupName("Ddnn")
              .AddConstructor<RingAllreduceWorker>()
              .AddAttribute("Port",
                            "TCP port on which the worker accepts its left neighbour.",
                            UintegerValue(50000),
                            MakeUintegerAccessor(&RingAllreduceWorker::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Tos",
                            "IP ToS of the job's sockets (0x10 -> PfifoFast band 0, 0x00 -> band "
                            "1, 0x08 -> band 2).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&RingAllreduceWorker::m_tos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("Transport",
                            "How partitions travel: Tcp (packets) or Ideal (analytic).",
                            EnumValue(TCP),
                            DDNN_ENUM_ACCESSOR(TransportKind, &RingAllreduceWorker::m_transport),
                            MakeEnumChecker(TCP, "Tcp", IDEAL, "Ideal"))
              .AddAttribute("SendChunkBytes",
                            "Most bytes written to the TCP socket at once.",
                            UintegerValue(65536),
                            MakeUintegerAccessor(&RingAllreduceWorker::m_chunkBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("IdealDataRate",
                            "Ideal transport: rate at which a partition is sent.",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&RingAllreduceWorker::m_idealRate),
                            MakeDataRateChecker())
              .AddAttribute("IdealStepLatency",
                            "Ideal transport: latency added to every step.",
                            TimeValue(MicroSeconds(20)),
                            MakeTimeAccessor(&RingAllreduceWorker::m_idealLatency),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ComputeScale",
                            "This worker's compute times relative to the job's (a straggler: "
                            "1.5 computes half as slow again).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RingAllreduceWorker::m_computeScale),
                            MakeDoubleChecker<double>(1e-6, 1e6))
              .AddAttribute("ComputeJitter",
                            "Random relative change of each iteration's compute times: every "
                            "iteration draws j and computes (1 + j) x as long (at least 0). "
                            "None by default; e.g. ns3::NormalRandomVariable[Variance=0.0025].",
                            PointerValue(),
                            MakePointerAccessor(&RingAllreduceWorker::m_computeJitter),
                            MakePointerChecker<RandomVariableStream>())
              .AddTraceSource("IterationStart",
                              "Forward of layer 0 started.",
                              MakeTraceSourceAccessor(&RingAllreduceWorker::m_iterationStartTrace),
                              "ns3::RingAllreduceWorker::IterationTracedCallback")
              .AddTraceSource("IterationEnd",
                              "The last buffer of the iteration finished its allreduce.",
                              MakeTraceSourceAccessor(&RingAllreduceWorker::m_iterationEndTrace),
                              "ns3::RingAllreduceWorker::IterationTracedCallback")
              .AddTraceSource("BufferReady",
                              "Backward of all layers of a buffer is done.",
                              MakeTraceSourceAccessor(&RingAllreduceWorker::m_bufferReadyTrace),
                              "ns3::RingAllreduceWorker::BufferTracedCallback")
              .AddTraceSource("PartitionSent",
                              "A partition was handed to the transport.",
                              MakeTraceSourceAccessor(&RingAllreduceWorker::m_partitionSentTrace),
                              "ns3::RingAllreduceWorker::PartitionTracedCallback")
              .AddTraceSource(
                  "PartitionReceived",
                  "A partition fully arrived from the left neighbour.",
                  MakeTraceSourceAccessor(&RingAllreduceWorker::m_partitionReceivedTrace),
                  "ns3::RingAllreduceWorker::PartitionTracedCallback");
    return tid;
}

RingAllreduceWorker::RingAllreduceWorker() = default;

RingAllreduceWorker::~RingAllreduceWorker()
{
    ddnn_training_free(m_training);
    ddnn_ring_free(m_ring);
}

void
RingAllreduceWorker::DoDispose()
{
    m_computeEvent.Cancel();
    m_job = nullptr;
    m_right = nullptr;
    m_sendSocket = nullptr;
    m_listenSocket = nullptr;
    m_recvSocket = nullptr;
    Application::DoDispose();
}

void
RingAllreduceWorker::Setup(Ptr<TrainingJob> job, uint32_t rank, const Address& rightPeer)
{
    m_job = job;
    m_rank = rank;
    m_rightPeer = rightPeer;
}

uint32_t
RingAllreduceWorker::GetRank() const
{
    return m_rank;
}

RingAllreduceWorker::TransportKind
RingAllreduceWorker::GetTransport() const
{
    return m_transport;
}

uint32_t
RingAllreduceWorker::GetIterationsCompleted() const
{
    return m_training ? ddnn_training_iterations_completed(m_training) : 0;
}

uint64_t
RingAllreduceWorker::GetBytesSent(uint32_t iteration) const
{
    return iteration < m_bytesSent.size() ? m_bytesSent[iteration] : 0;
}

uint64_t
RingAllreduceWorker::GetBytesReceived() const
{
    return m_bytesReceived;
}

int64_t
RingAllreduceWorker::AssignStreams(int64_t stream)
{
    if (m_computeJitter)
    {
        m_computeJitter->SetStream(stream);
        return 1;
    }
    return 0;
}

bool
RingAllreduceWorker::Check(int rc, const char* call)
{
    if (rc == DDNN_OK)
    {
        return true;
    }
    m_job->Fail(m_rank, std::string(call) + " failed: " + ddnn_strerror(rc));
    return false;
}

void
RingAllreduceWorker::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_IF(!m_job, "RingAllreduceWorker: install it with TrainingHelper");
    Ptr<DnnModel> model = m_job->GetModel();
    const uint32_t layers = model->GetLayerCount();
    const uint32_t buffers = model->GetBufferCount();
    std::vector<uint64_t> forward(layers);
    std::vector<uint64_t> backward(layers);
    std::vector<uint32_t> bufferOfLayer(layers);
    std::vector<uint32_t> lowest(buffers);
    for (uint32_t l = 0; l < layers; ++l)
    {
        forward[l] = model->GetForwardTime(l).GetNanoSeconds();
        backward[l] = model->GetBackwardTime(l).GetNanoSeconds();
        bufferOfLayer[l] = model->GetBufferOfLayer(l);
    }
    for (uint32_t b = 0; b < buffers; ++b)
    {
        lowest[b] = model->GetBuffer(b).lowestLayer;
    }
    Time stop = m_job->GetStopTime();
    ddnn_training_config cfg{
        layers,
        forward.data(),
        backward.data(),
        buffers,
        bufferOfLayer.data(),
        lowest.data(),
        m_job->GetBarrier() ? 1 : 0,
        m_job->GetIterations(),
        stop.IsStrictlyPositive() ? static_cast<uint64_t>(stop.GetNanoSeconds()) : 0};
    ddnn_training_callbacks tcb{
        &CoreCompute, &CoreBufferReady, &CoreIterationStart, &CoreIterationEnd, &CoreFinished};
    ddnn_ring_config rcfg{m_job->GetWorkerCount(), m_rank};
    ddnn_ring_callbacks rcb{&CoreSend, &CoreReceived, &CoreRingDone};
    if (!Check(ddnn_training_new(&m_training, &cfg, &tcb, this), "ddnn_training_new")
        || !Check(ddnn_ring_new(&m_ring, &rcfg, &rcb, this), "ddnn_ring_new"))
    {
        return;
    }

    if (m_transport == TCP)
    {
        // Accept the left neighbour; ACKs leave with the job's ToS too.
        InetSocketAddress local(Ipv4Address::GetAny(), m_port);
        m_listenSocket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        compat::SetTos(m_listenSocket, local, m_tos); // accepted sockets inherit it
        if (m_listenSocket->Bind(local) == -1 || m_listenSocket->Listen() == -1)
        {
            m_job->Fail(m_rank, "cannot listen on TCP port " + std::to_string(m_port));
            return;
        }
        m_listenSocket->SetAcceptCallback(MakeCallback(&RingAllreduceWorker::AcceptRequest, this),
                                          MakeCallback(&RingAllreduceWorker::Accepted, this));
        // Connect to the right neighbour.
        InetSocketAddress peer = InetSocketAddress::ConvertFrom(m_rightPeer);
        m_sendSocket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        WarnIfNs3TcpDefaults(m_sendSocket);
        compat::SetTos(m_sendSocket, peer, m_tos);
        m_sendSocket->Bind();
        m_sendSocket->SetConnectCallback(
            MakeCallback(&RingAllreduceWorker::ConnectionSucceeded, this),
            MakeCallback(&RingAllreduceWorker::ConnectionFailed, this));
        m_sendSocket->SetSendCallback(MakeCallback(&RingAllreduceWorker::SendSpace, this));
        m_sendSocket->SetCloseCallbacks(MakeCallback(&RingAllreduceWorker::HandleClose, this),
                                        MakeCallback(&RingAllreduceWorker::HandleClose, this));
        m_sendSocket->ShutdownRecv();
        m_sendSocket->Connect(peer);
    }
    else
    {
        m_right = m_job->GetWorker((m_rank + 1) % m_job->GetWorkerCount());
    }
    m_job->NotifyProgress();
    Check(ddnn_training_start(m_training, Simulator::Now().GetNanoSeconds()),
          "ddnn_training_start");
}

void
RingAllreduceWorker::StopApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_jobFinished = true; // a stopped worker no longer reports closed connections
    m_computeEvent.Cancel();
    CloseConnections();
}

void
RingAllreduceWorker::MarkJobFinished()
{
    m_jobFinished = true;
}

void
RingAllreduceWorker::CloseConnections()
{
    for (Ptr<Socket> socket : {m_sendSocket, m_recvSocket, m_listenSocket})
    {
        if (socket)
        {
            socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            socket->Close();
        }
    }
    m_sendSocket = nullptr;
    m_recvSocket = nullptr;
    m_listenSocket = nullptr;
}

// ---- training loop -------------------------------------------------------------------------

int
RingAllreduceWorker::CoreCompute(void* ctx, uint64_t ns)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_computing = true;
    const double factor = self->m_computeScale * self->m_iterationFactor;
    self->m_computeEvent = Simulator::Schedule(
        NanoSeconds(std::llround(ns * factor)), &RingAllreduceWorker::ComputeDone, self);
    return DDNN_OK;
}

void
RingAllreduceWorker::ComputeDone()
{
    m_computing = false;
    m_job->NotifyProgress();
    Check(ddnn_training_on_compute_done(m_training, Simulator::Now().GetNanoSeconds()),
          "ddnn_training_on_compute_done");
}

int
RingAllreduceWorker::CoreBufferReady(void* ctx, uint32_t iteration, uint32_t buffer)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_bufferReadyTrace(self->m_rank, iteration, buffer);
    return self->m_job->NotifyReady(self->m_rank, iteration, buffer);
}

int
RingAllreduceWorker::CoreIterationStart(void* ctx, uint32_t iteration)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_iterationFactor
        = self->m_computeJitter ? std::max(0.0, 1 + self->m_computeJitter->GetValue()) : 1.0;
    self->m_iterationStartTrace(self->m_rank, iteration);
    return DDNN_OK;
}

int
RingAllreduceWorker::CoreIterationEnd(void* ctx, uint32_t iteration)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_iterationEndTrace(self->m_rank, iteration);
    return DDNN_OK;
}

int
RingAllreduceWorker::CoreFinished(void* ctx)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_job->NotifyFinished(self->m_rank);
    return DDNN_OK;
}

int
RingAllreduceWorker::BufferDone(uint32_t iteration, uint32_t buffer)
{
    int rc = ddnn_training_on_buffer_done(
        m_training, iteration, buffer, Simulator::Now().GetNanoSeconds());
    Check(rc, "ddnn_training_on_buffer_done");
    return rc;
}

// ---- ring-allreduce ------------------------------------------------------------------------

int
RingAllreduceWorker::StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes)
{
    m_ringIteration = iteration;
    m_ringBuffer = buffer;
    int rc = ddnn_ring_start(m_ring, bytes);
    Check(rc, "ddnn_ring_start");
    return rc;
}

int
RingAllreduceWorker::CoreSend(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    if (self->m_bytesSent.size() <= self->m_ringIteration)
    {
        self->m_bytesSent.resize(self->m_ringIteration + 1, 0);
    }
    self->m_bytesSent[self->m_ringIteration] += bytes;
    self->m_partitionSentTrace(
        self->m_rank, self->m_ringIteration, self->m_ringBuffer, step, partition, bytes);
    if (self->m_transport == IDEAL)
    {
        self->SendIdeal(bytes);
    }
    else
    {
        self->m_txPending += bytes;
        self->Pump();
    }
    return DDNN_OK;
}

int
RingAllreduceWorker::CoreReceived(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    self->m_partitionReceivedTrace(
        self->m_rank, self->m_ringIteration, self->m_ringBuffer, step, partition, bytes);
    return DDNN_OK;
}

int
RingAllreduceWorker::CoreRingDone(void* ctx)
{
    auto self = static_cast<RingAllreduceWorker*>(ctx);
    return self->m_job->NotifyDone(self->m_rank);
}

void
RingAllreduceWorker::Receive(uint64_t bytes)
{
    m_bytesReceived += bytes;
    m_job->NotifyProgress();
    Check(ddnn_ring_on_received(m_ring, bytes), "ddnn_ring_on_received");
}

// ---- ideal transport -----------------------------------------------------------------------

void
RingAllreduceWorker::SendIdeal(uint64_t bytes)
{
    // One partition at a time on the worker's uplink, then the step latency.
    Time start = Max(Simulator::Now(), m_idealBusyUntil);
    m_idealBusyUntil = start + m_idealRate.CalculateBytesTxTime(bytes);
    Simulator::Schedule(m_idealBusyUntil + m_idealLatency - Simulator::Now(),
                        &RingAllreduceWorker::Receive,
                        m_right,
                        bytes);
}

// ---- TCP transport -------------------------------------------------------------------------

void
RingAllreduceWorker::ConnectionSucceeded(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_connected = true;
    Pump();
}

void
RingAllreduceWorker::ConnectionFailed(Ptr<Socket>)
{
    std::ostringstream os;
    os << "connection to its right neighbour "
       << InetSocketAddress::ConvertFrom(m_rightPeer).GetIpv4() << " failed";
    m_job->Fail(m_rank, os.str());
}

bool
RingAllreduceWorker::AcceptRequest(Ptr<Socket>, const Address&)
{
    return !m_recvSocket; // exactly one left neighbour
}

void
RingAllreduceWorker::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_recvSocket = socket;
    socket->SetRecvCallback(MakeCallback(&RingAllreduceWorker::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&RingAllreduceWorker::HandleClose, this),
                              MakeCallback(&RingAllreduceWorker::HandleClose, this));
}

void
RingAllreduceWorker::HandleRead(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        Receive(packet->GetSize());
    }
}

void
RingAllreduceWorker::HandleClose(Ptr<Socket> socket)
{
    if (m_jobFinished)
    {
        return;
    }
    const char* which = socket == m_sendSocket ? "right" : "left";
    m_job->Fail(m_rank, std::string("connection to its ") + which + " neighbour closed");
}

void
RingAllreduceWorker::SendSpace(Ptr<Socket>, uint32_t)
{
    Pump();
}

void
RingAllreduceWorker::Pump()
{
    if (!m_connected || !m_sendSocket)
    {
        return;
    }
    while (m_txPending > 0)
    {
        uint32_t room = m_sendSocket->GetTxAvailable();
        uint32_t chunk = static_cast<uint32_t>(
            std::min<uint64_t>({m_txPending, static_cast<uint64_t>(room), m_chunkBytes}));
        if (chunk == 0)
        {
            return; // SendSpace() calls again when the socket has room
        }
        Ptr<Packet> packet = Create<Packet>(chunk);
        packet->AddByteTag(TenantTag(TenantTag::TRAINING));
        int sent = m_sendSocket->Send(packet);
        if (sent <= 0)
        {
            return;
        }
        m_txPending -= static_cast<uint64_t>(sent);
    }
}

std::string
RingAllreduceWorker::Describe() const
{
    std::ostringstream os;
    char line[200] = "not started";
    if (m_training)
    {
        ddnn_training_describe(m_training, line, sizeof line);
    }
    os << line;
    if (m_ring && ddnn_ring_active(m_ring))
    {
        os << "; allreduce of buffer " << m_ringBuffer << " (iteration " << m_ringIteration
           << "): " << ddnn_ring_steps_received(m_ring) << " of " << ddnn_ring_steps(m_ring)
           << " steps received, " << ddnn_ring_step_bytes_received(m_ring) << " of "
           << ddnn_ring_step_bytes_expected(m_ring) << " bytes of the next from the left";
    }
    if (m_transport == TCP)
    {
        os << "; " << m_txPending << " bytes wait for the socket"
           << (m_connected ? "" : ", not connected to the right");
    }
    return os.str();
}

} // namespace ns3
