/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_WORKER_H
#define TRAINING_WORKER_H

#include "collective-rank.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

struct ddnn_training;

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief One worker of a training job (ranks 0..N-1): the rank of the collective that also
 * trains.
 *
 * It runs the C core's training loop (forward and backward compute, one task at a time) and,
 * when the job's syncer starts a fusion buffer, its part of the job's collective (CollectiveRank).
 */
class TrainingWorker : public CollectiveRank
{
  public:
    static TypeId GetTypeId();
    TrainingWorker();
    ~TrainingWorker() override;

    uint32_t GetIterationsCompleted() const override;
    /** Fixes the jitter's random stream (ComputeJitter); returns the streams used (0 or 1). */
    int64_t AssignStreams(int64_t stream);
    /** Whether a compute step is under way (its end is scheduled: progress will come). */
    bool IsComputing() const;

    /**
     * When this worker's next forward pass first needs buffer `buffer` of `iteration`, at the
     * compute-bound pace (the training loop's deadline); false until the buffer is ready here.
     */
    bool GetBufferDeadline(uint32_t iteration, uint32_t buffer, uint64_t* deadlineNs) const;

    /** Called by the job's syncer once every rank is through with the buffer. */
    int BufferDone(uint32_t iteration, uint32_t buffer);

    /** (worker, iteration) */
    typedef void (*IterationTracedCallback)(uint32_t worker, uint32_t iteration);
    /** (worker, iteration, layer, backward, duration) */
    typedef void (*LayerComputeTracedCallback)(
        uint32_t worker, uint32_t iteration, uint32_t layer, bool backward, Time duration);
    /** (worker, iteration, buffer) */
    typedef void (*BufferTracedCallback)(uint32_t worker, uint32_t iteration, uint32_t buffer);

  protected:
    void DoDispose() override;
    std::string DescribeCompute() const override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    // C core callbacks
    static int CoreCompute(void* ctx, uint64_t ns);
    static int CoreBufferReady(void* ctx, uint32_t iteration, uint32_t buffer);
    static int CoreIterationStart(void* ctx, uint32_t iteration);
    static int CoreIterationEnd(void* ctx, uint32_t iteration);
    static int CoreFinished(void* ctx);

    void ComputeDone();

    // attributes
    double m_computeScale;                     //!< a straggler's slowness
    Ptr<RandomVariableStream> m_computeJitter; //!< per-iteration relative change, or none
    double m_iterationFactor{1.0};             //!< 1 + this iteration's jitter

    // C core
    ddnn_training* m_training{nullptr};
    EventId m_computeEvent;

    TracedCallback<uint32_t, uint32_t> m_iterationStartTrace;
    TracedCallback<uint32_t, uint32_t> m_iterationEndTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t, bool, Time> m_layerComputeTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_bufferReadyTrace;
};

} // namespace ns3

#endif /* TRAINING_WORKER_H */
