/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-worker.h"

#include "ddnn-collective.h"
#include "ddnn-training.h"
#include "training-job.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingWorker");
NS_OBJECT_ENSURE_REGISTERED(TrainingWorker);

TypeId
TrainingWorker::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TrainingWorker")
              .SetParent<Application>()
              .SetGroupName("Ddnn")
              .AddConstructor<TrainingWorker>()
              .AddAttribute("ComputeScale",
                            "This worker's compute times relative to the job's (a straggler: "
                            "1.5 computes half as slow again).",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&TrainingWorker::m_computeScale),
                            MakeDoubleChecker<double>(1e-6, 1e6))
              .AddAttribute("ComputeJitter",
                            "Random relative change of each iteration's compute times: every "
                            "iteration draws j and computes (1 + j) x as long (at least 0). "
                            "None by default; e.g. ns3::NormalRandomVariable[Variance=0.0025].",
                            PointerValue(),
                            MakePointerAccessor(&TrainingWorker::m_computeJitter),
                            MakePointerChecker<RandomVariableStream>())
              .AddTraceSource("IterationStart",
                              "Forward of layer 0 started.",
                              MakeTraceSourceAccessor(&TrainingWorker::m_iterationStartTrace),
                              "ns3::TrainingWorker::IterationTracedCallback")
              .AddTraceSource("IterationEnd",
                              "The last buffer of the iteration finished its allreduce.",
                              MakeTraceSourceAccessor(&TrainingWorker::m_iterationEndTrace),
                              "ns3::TrainingWorker::IterationTracedCallback")
              .AddTraceSource("LayerCompute",
                              "A layer's forward or backward compute started (it lasts "
                              "`duration`, stragglers and jitter included).",
                              MakeTraceSourceAccessor(&TrainingWorker::m_layerComputeTrace),
                              "ns3::TrainingWorker::LayerComputeTracedCallback")
              .AddTraceSource("BufferReady",
                              "Backward of all layers of a buffer is done.",
                              MakeTraceSourceAccessor(&TrainingWorker::m_bufferReadyTrace),
                              "ns3::TrainingWorker::BufferTracedCallback")
              .AddTraceSource(
                  "PartitionSent",
                  "A collective handed a chunk (a partition of the ring) to the transport.",
                  MakeTraceSourceAccessor(&TrainingWorker::m_partitionSentTrace),
                  "ns3::TrainingWorker::PartitionTracedCallback")
              .AddTraceSource("PartitionReceived",
                              "A chunk (a partition of the ring) fully arrived.",
                              MakeTraceSourceAccessor(&TrainingWorker::m_partitionReceivedTrace),
                              "ns3::TrainingWorker::PartitionTracedCallback");
    return tid;
}

TrainingWorker::TrainingWorker() = default;

TrainingWorker::~TrainingWorker()
{
    ddnn_training_free(m_training);
    ddnn_collective_free(m_collective);
}

void
TrainingWorker::DoDispose()
{
    m_computeEvent.Cancel();
    m_job = nullptr;
    if (m_transport)
    {
        m_transport->Dispose();
        m_transport = nullptr;
    }
    Application::DoDispose();
}

void
TrainingWorker::Setup(Ptr<TrainingJob> job, uint32_t rank, Ptr<PartitionTransport> transport)
{
    m_job = job;
    m_rank = rank;
    m_transport = transport;
}

uint32_t
TrainingWorker::GetRank() const
{
    return m_rank;
}

Ptr<PartitionTransport>
TrainingWorker::GetTransport() const
{
    return m_transport;
}

Ptr<TrainingJob>
TrainingWorker::GetJob() const
{
    return m_job;
}

uint32_t
TrainingWorker::GetIterationsCompleted() const
{
    return m_training ? ddnn_training_iterations_completed(m_training) : 0;
}

uint64_t
TrainingWorker::GetBytesSent(uint32_t iteration) const
{
    return iteration < m_bytesSent.size() ? m_bytesSent[iteration] : 0;
}

uint64_t
TrainingWorker::GetBytesReceived() const
{
    return m_bytesReceived;
}

int64_t
TrainingWorker::AssignStreams(int64_t stream)
{
    if (m_computeJitter)
    {
        m_computeJitter->SetStream(stream);
        return 1;
    }
    return 0;
}

bool
TrainingWorker::Check(int rc, const char* call)
{
    if (rc == DDNN_OK)
    {
        return true;
    }
    m_job->Fail(m_rank, std::string(call) + " failed: " + ddnn_strerror(rc));
    return false;
}

bool
TrainingWorker::IsDedicatedServer() const
{
    return m_job && m_rank >= m_job->GetWorkerCount();
}

std::vector<PartitionTransport::Peer>
TrainingWorker::Peers(bool sendTo) const
{
    const ddnn_collective_ops* ops = m_job->GetCollective();
    const ddnn_collective_config cfg = m_job->GetCollectiveConfig(m_rank);
    auto list = sendTo ? ops->send_peers : ops->receive_peers;
    std::vector<uint32_t> ranks(list(&cfg, nullptr, 0));
    list(&cfg, ranks.data(), static_cast<uint32_t>(ranks.size()));
    std::vector<PartitionTransport::Peer> peers;
    for (uint32_t r : ranks)
    {
        peers.push_back({r, m_job->GetWorkerAddress(r), m_job->GetWorker(r)->GetTransport()});
    }
    return peers;
}

void
TrainingWorker::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_IF(!m_job || !m_transport, "TrainingWorker: install it with TrainingHelper");
    const ddnn_collective_config ccfg = m_job->GetCollectiveConfig(m_rank);
    ddnn_collective_callbacks ccb;
    ddnn_collective_callbacks_init(&ccb);
    ccb.send = &CoreSend;
    ccb.received = &CoreReceived;
    ccb.done = &CoreCollectiveDone;
    if (IsDedicatedServer())
    {
        // A dedicated parameter server computes nothing: it only serves its shard.
        if (Check(ddnn_collective_new(&m_collective, m_job->GetCollective(), &ccfg, &ccb, this),
                  "ddnn_collective_new"))
        {
            OpenTransport();
        }
        return;
    }
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
    ddnn_training_config cfg{}; // every member zero, then set by name
    cfg.layers = layers;
    cfg.forward_ns = forward.data();
    cfg.backward_ns = backward.data();
    cfg.buffers = buffers;
    cfg.buffer_of_layer = bufferOfLayer.data();
    cfg.buffer_lowest = lowest.data();
    cfg.barrier = m_job->GetBarrier() ? 1 : 0;
    cfg.max_iterations = m_job->GetIterations();
    cfg.stop_ns = stop.IsStrictlyPositive() ? static_cast<uint64_t>(stop.GetNanoSeconds()) : 0;
    ddnn_training_callbacks tcb;
    ddnn_training_callbacks_init(&tcb);
    tcb.compute = &CoreCompute;
    tcb.buffer_ready = &CoreBufferReady;
    tcb.iteration_start = &CoreIterationStart;
    tcb.iteration_end = &CoreIterationEnd;
    tcb.finished = &CoreFinished;
    NS_LOG_INFO("worker " << m_rank << " starts: " << layers << " layers in " << buffers
                          << " buffers, barrier " << m_job->GetBarrier());
    if (!Check(ddnn_training_new(&m_training, &cfg, &tcb, this), "ddnn_training_new")
        || !Check(ddnn_collective_new(&m_collective, m_job->GetCollective(), &ccfg, &ccb, this),
                  "ddnn_collective_new"))
    {
        return;
    }
    OpenTransport();
    Check(ddnn_training_start(m_training, Simulator::Now().GetNanoSeconds()),
          "ddnn_training_start");
}

void
TrainingWorker::OpenTransport()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_transport->SetReceiveCallback(MakeCallback(&TrainingWorker::Receive, this));
    m_transport->SetFailureCallback(MakeCallback(&TrainingWorker::TransportFailed, this));
    if (const int tos = m_job->GetPriorityTos(); tos >= 0)
    {
        NS_LOG_INFO("worker " << m_rank << ": priority " << m_job->GetPriority() << ", ToS "
                              << tos);
        m_transport->SetAttributeFailSafe("Tos", UintegerValue(tos)); // a transport with bands
    }
    m_transport->Open(GetNode(), m_rank, Peers(true), Peers(false));
    m_job->NotifyProgress();
}

void
TrainingWorker::StopApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_jobFinished = true; // a stopped worker no longer reports closed connections
    m_computeEvent.Cancel();
    CloseTransport();
}

void
TrainingWorker::MarkJobFinished()
{
    m_jobFinished = true;
}

void
TrainingWorker::CloseTransport()
{
    if (m_transport)
    {
        m_transport->Close();
    }
}

void
TrainingWorker::TransportFailed(const std::string& what)
{
    NS_LOG_WARN("worker " << m_rank << ": " << what);
    if (!m_jobFinished)
    {
        m_job->Fail(m_rank, what);
    }
}

// ---- training loop -------------------------------------------------------------------------

int
TrainingWorker::CoreCompute(void* ctx, uint64_t ns)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    const double factor = self->m_computeScale * self->m_iterationFactor;
    const Time duration = NanoSeconds(std::llround(ns * factor));
    uint32_t iteration = 0;
    uint32_t layer = 0;
    int backward = 0;
    if (ddnn_training_current_task(self->m_training, &iteration, &layer, &backward))
    {
        NS_LOG_LOGIC("worker " << self->m_rank << ": iteration " << iteration << ", "
                               << (backward ? "backward" : "forward") << " of layer " << layer
                               << " for " << duration.As(Time::US));
        self->m_layerComputeTrace(self->m_rank, iteration, layer, backward != 0, duration);
    }
    self->m_computeEvent = Simulator::Schedule(duration, &TrainingWorker::ComputeDone, self);
    return DDNN_OK;
}

bool
TrainingWorker::IsComputing() const
{
    return !m_computeEvent.IsExpired();
}

void
TrainingWorker::ComputeDone()
{
    m_job->NotifyProgress();
    Check(ddnn_training_on_compute_done(m_training, Simulator::Now().GetNanoSeconds()),
          "ddnn_training_on_compute_done");
}

int
TrainingWorker::CoreBufferReady(void* ctx, uint32_t iteration, uint32_t buffer)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    NS_LOG_INFO("worker " << self->m_rank << ": buffer " << buffer << " of iteration " << iteration
                          << " ready");
    self->m_bufferReadyTrace(self->m_rank, iteration, buffer);
    return self->m_job->NotifyReady(self->m_rank, iteration, buffer);
}

int
TrainingWorker::CoreIterationStart(void* ctx, uint32_t iteration)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    self->m_iterationFactor
        = self->m_computeJitter ? std::max(0.0, 1 + self->m_computeJitter->GetValue()) : 1.0;
    NS_LOG_INFO("worker " << self->m_rank << ": iteration " << iteration << " starts");
    self->m_iterationStartTrace(self->m_rank, iteration);
    return DDNN_OK;
}

int
TrainingWorker::CoreIterationEnd(void* ctx, uint32_t iteration)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    NS_LOG_INFO("worker " << self->m_rank << ": iteration " << iteration << " ends");
    self->m_iterationEndTrace(self->m_rank, iteration);
    return DDNN_OK;
}

int
TrainingWorker::CoreFinished(void* ctx)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    NS_LOG_INFO("worker " << self->m_rank << ": every iteration done");
    self->m_job->NotifyFinished(self->m_rank);
    return DDNN_OK;
}

int
TrainingWorker::BufferDone(uint32_t iteration, uint32_t buffer)
{
    int rc = ddnn_training_on_buffer_done(
        m_training, iteration, buffer, Simulator::Now().GetNanoSeconds());
    Check(rc, "ddnn_training_on_buffer_done");
    return rc;
}

// ---- collective ----------------------------------------------------------------------------

int
TrainingWorker::StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << m_rank << iteration << buffer << bytes);
    m_bufferIteration = iteration;
    m_buffer = buffer;
    m_transport->SetBufferTos(m_job->GetBufferTos(buffer));
    int rc = ddnn_collective_start(m_collective, bytes);
    Check(rc, "ddnn_collective_start");
    return rc;
}

int
TrainingWorker::CoreSend(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    if (self->m_bytesSent.size() <= self->m_bufferIteration)
    {
        self->m_bytesSent.resize(self->m_bufferIteration + 1, 0);
    }
    self->m_bytesSent[self->m_bufferIteration] += bytes;
    NS_LOG_LOGIC("worker " << self->m_rank << ": buffer " << self->m_buffer << " step " << step
                           << ": partition " << chunk << " (" << bytes << " bytes) sent to "
                           << peer);
    self->m_partitionSentTrace(
        self->m_rank, self->m_bufferIteration, self->m_buffer, step, chunk, bytes);
    self->m_transport->Send(peer, bytes);
    return DDNN_OK;
}

int
TrainingWorker::CoreReceived(
    void* ctx, [[maybe_unused]] uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    NS_LOG_LOGIC("worker " << self->m_rank << ": buffer " << self->m_buffer << " step " << step
                           << ": partition " << chunk << " (" << bytes << " bytes) received from "
                           << peer);
    self->m_partitionReceivedTrace(
        self->m_rank, self->m_bufferIteration, self->m_buffer, step, chunk, bytes);
    return DDNN_OK;
}

int
TrainingWorker::CoreCollectiveDone(void* ctx)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    NS_LOG_DEBUG("worker " << self->m_rank << ": done with buffer " << self->m_buffer
                           << " of iteration " << self->m_bufferIteration);
    return self->m_job->NotifyDone(self->m_rank);
}

void
TrainingWorker::Receive(uint32_t from, uint64_t bytes)
{
    m_bytesReceived += bytes;
    m_job->NotifyProgress();
    Check(ddnn_collective_on_received(m_collective, from, bytes), "ddnn_collective_on_received");
}

std::string
TrainingWorker::Describe() const
{
    std::ostringstream os;
    char line[200] = "not started";
    if (IsDedicatedServer())
    {
        snprintf(line, sizeof line, "dedicated parameter server, computes nothing");
    }
    if (m_training)
    {
        ddnn_training_describe(m_training, line, sizeof line);
    }
    os << line;
    if (m_collective && ddnn_collective_active(m_collective))
    {
        ddnn_collective_describe(m_collective, line, sizeof line);
        os << "; " << ddnn_collective_get_ops(m_collective)->name << " of buffer " << m_buffer
           << " (iteration " << m_bufferIteration << "): " << line;
    }
    const std::string transport = m_transport ? m_transport->Describe() : "";
    if (!transport.empty())
    {
        os << "; " << transport;
    }
    return os.str();
}

} // namespace ns3
