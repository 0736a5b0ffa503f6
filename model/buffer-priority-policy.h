/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BUFFER_PRIORITY_POLICY_H
#define BUFFER_PRIORITY_POLICY_H

#include "dnn-model.h"
#include "type-id-registry.h"

#include "ns3/object.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Chooses the IP ToS (hence the egress band) of each fusion buffer's transfers: the
 * priority policy of a training job (TrainingJob's BufferPriority). Without a policy every
 * buffer travels at the transport's own Tos.
 *
 * TrainingJob asks the policy once per step of a buffer's collective (the first time any rank
 * sends in that step), and every rank sends that step's chunk at the answer: a ring never waits
 * on one hop at another band. A static policy answers GetTos(model, buffer) whatever the
 * progress; an adaptive one decides from the Progress of the collective.
 *
 * A transport with bands keeps one connection per ToS in use to each peer.
 *
 * Policies are registered by name, one line in each policy's own file, and a scenario names
 * one (training priority-policy).
 */
class BufferPriorityPolicy : public Object, public RegisteredTypes<BufferPriorityPolicy>
{
  public:
    static TypeId GetTypeId();

    /** What TrainingJob knows of a buffer's collective when one of its steps begins. */
    struct Progress
    {
        uint32_t iteration;
        uint32_t buffer;
        uint32_t step;         //!< the collective's step about to send
        uint64_t nowNs;        //!< simulated time
        uint64_t startedNs;    //!< when the collective started on every rank
        uint64_t deadlineNs;   //!< when the next forward pass first needs the buffer
        uint64_t bytesTotal;   //!< every rank's bytes of the collective
        uint64_t bytesDone;    //!< of them, delivered so far
        uint64_t busiestBytes; //!< the bytes of the rank that sends most
        /** Of the iteration's other unfinished buffers that must also be done by this one's
         * deadline (with the barrier, all; without, those of lower layers), the busiest
         * rank's bytes: the backlog behind this collective. */
        uint64_t backlogBusiestBytes;
        uint64_t iterationNs; //!< the compute-bound iteration (forward and backward)
        int currentTos;       //!< the previous step's ToS, -1 before the first step
    };

    /**
     * Called once by TrainingJob::Setup with the job's model: a policy reads what it needs
     * (a reference file), throwing DdnnError on a fault, before the simulation runs.
     */
    virtual void Prepare(Ptr<const DnnModel> model);

    /** The ToS of buffer `buffer` of `model`, or -1 for the transport's own. */
    virtual int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const = 0;

    /**
     * The ToS of the step `progress` describes, or -1 for the transport's own. A static
     * policy's: GetTos(model, progress.buffer).
     */
    virtual int Decide(Ptr<const DnnModel> model, const Progress& progress);

    /**
     * Whether Decide reads the collective's progress (not only its buffer): such a policy
     * needs every worker of the job in one process (a distributed run refuses it). False.
     */
    virtual bool DecidesFromProgress() const;

    /**
     * How long from progress.nowNs, if no further byte is delivered, until Decide may answer
     * otherwise for the step in flight: TrainingJob asks again then and moves the step's
     * bytes still in the transport's queues to the new ToS. Negative (the default): Decide
     * changes its answer at step boundaries only.
     */
    virtual int64_t GetRecheckDelayNs(const Progress& progress) const;

    /**
     * Told when a collective ends (progress.nowNs), with the time it spent at each ToS: a
     * policy may learn from it. Does nothing.
     */
    virtual void CollectiveEnded(const Progress& progress,
                                 const std::map<uint8_t, uint64_t>& nsAtTos);

    /**
     * The ToS of the ACKs of the job's incoming data, or -1 for the transport's own ToS: a
     * policy that raises transfers raises their ACKs with it.
     */
    virtual int GetAckTos() const;

    /** Every ToS Decide may answer for `model` (for the check of the egress bands). */
    virtual std::set<uint8_t> GetTosValues(Ptr<const DnnModel> model) const;
};

/** The registry of BufferPriorityPolicy's choices, defined in its own file. */
template<>
NamedRegistry<TypeId (*)()>& RegisteredTypes<BufferPriorityPolicy>::Registry();

} // namespace ns3

// Until 0.3: the policies this header held before they had files of their own.
#include "first-buffers-priority.h"
#include "mapped-buffer-priority.h"

#endif /* BUFFER_PRIORITY_POLICY_H */
