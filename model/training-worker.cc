/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-worker.h"

#include "ddnn-profile.h"
#include "ddnn-training.h"
#include "training-job.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

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
              .SetParent<CollectiveRank>()
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
                              "The last buffer of the iteration finished its collective.",
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
                              "ns3::TrainingWorker::BufferTracedCallback");
    return tid;
}

TrainingWorker::TrainingWorker() = default;

TrainingWorker::~TrainingWorker()
{
    ddnn_training_free(m_training);
}

void
TrainingWorker::DoDispose()
{
    m_computeEvent.Cancel();
    CollectiveRank::DoDispose();
}

uint32_t
TrainingWorker::GetIterationsCompleted() const
{
    return m_training ? ddnn_training_iterations_completed(m_training) : 0;
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

void
TrainingWorker::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_IF(!m_job || !GetTransport(), "TrainingWorker: install it with TrainingHelper");
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
    cfg.first_backward = m_job->GetFirstPass() == TrainingJob::BACKWARD ? 1 : 0;
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
        || !StartCollective())
    {
        return;
    }
    Check(ddnn_training_start(m_training, Simulator::Now().GetNanoSeconds()),
          "ddnn_training_start");
}

void
TrainingWorker::StopApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_computeEvent.Cancel();
    CollectiveRank::StopApplication();
}

// ---- training loop -------------------------------------------------------------------------

int
TrainingWorker::CoreCompute(void* ctx, uint64_t ns)
{
    auto self = static_cast<TrainingWorker*>(ctx);
    const double factor = self->m_computeScale * self->m_iterationFactor;
    // 10^6 s, the longest compute a profile may give: a draw of ComputeJitter beyond it would
    // leave the run waiting (or wrap ns-3's time), so the run ends here saying why.
    if (!(ns * factor <= static_cast<double>(DDNN_PROFILE_MAX_COMPUTE_NS)))
    {
        std::ostringstream what;
        what << "ComputeJitter and ComputeScale make a compute step of " << ns * factor / 1e9
             << " s (" << factor << " times " << ns << " ns), more than 10^6 s";
        self->m_job->Fail(self->m_rank, what.str());
        return DDNN_ERR_RANGE;
    }
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

bool
TrainingWorker::GetBufferDeadline(uint32_t iteration, uint32_t buffer, uint64_t* deadlineNs) const
{
    return m_training
           && ddnn_training_buffer_deadline(m_training, iteration, buffer, deadlineNs) == DDNN_OK;
}

int
TrainingWorker::BufferDone(uint32_t iteration, uint32_t buffer)
{
    int rc = ddnn_training_on_buffer_done(
        m_training, iteration, buffer, Simulator::Now().GetNanoSeconds());
    Check(rc, "ddnn_training_on_buffer_done");
    return rc;
}

std::string
TrainingWorker::DescribeCompute() const
{
    char line[200] = "not started";
    if (m_training)
    {
        ddnn_training_describe(m_training, line, sizeof line);
    }
    return line;
}

} // namespace ns3
