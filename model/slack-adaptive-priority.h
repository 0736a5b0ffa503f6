/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SLACK_ADAPTIVE_PRIORITY_H
#define SLACK_ADAPTIVE_PRIORITY_H

#include "buffer-priority-policy.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Priority policy "slack-adaptive": a buffer's transfers yield (LowTos) while its
 * collective can still finish before the next forward pass needs it, and are raised (HighTos)
 * when that slack falls below a margin.
 *
 * At each step of a collective the slack is the buffer's deadline (when the next forward pass
 * first needs it at the compute-bound pace, the earliest of the workers') less now, less the
 * time its remaining bytes take at the rate the collective has achieved so far (before any byte
 * arrived, at NominalRate per sending rank), less the time the iteration's buffers still to
 * come that must be done by then too (with the barrier, all of them) take at NominalRate. The
 * step is raised when the slack is below the margin,
 * MarginFraction of the compute-bound iteration plus Margin; a raised collective is lowered again
 * once its slack exceeds the margin by HysteresisFraction of the iteration. The first step starts
 * low. A low step is raised mid-flight too: the job asks again when its slack would reach the
 * margin if nothing more were delivered (at least a tenth of the margin later, so that a
 * collective progressing just above the margin costs a bounded number of events).
 */
class SlackAdaptivePriority : public BufferPriorityPolicy
{
  public:
    static TypeId GetTypeId();
    SlackAdaptivePriority();

    /** LowTos: where a buffer starts. */
    int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const override;
    int Decide(Ptr<const DnnModel> model, const Progress& progress) override;
    bool DecidesFromProgress() const override;
    int64_t GetRecheckDelayNs(const Progress& progress) const override;
    /** Learns the rate of the collectives wholly at HighTos (LearnRate). */
    void CollectiveEnded(const Progress& progress,
                         const std::map<uint8_t, uint64_t>& nsAtTos) override;
    std::set<uint8_t> GetTosValues(Ptr<const DnnModel> model) const override;
    /** HighTos: a raised step's ACKs must not wait behind the lowered ones. */
    int GetAckTos() const override;

    /** The slack of `progress` under this policy's NominalRate, in ns (negative: late). */
    int64_t GetSlackNs(const Progress& progress) const;

  private:
    /** The slack below which a step is raised, in ns. */
    double GetMarginNs(const Progress& progress) const;

    uint8_t m_lowTos;
    uint8_t m_highTos;
    double m_marginFraction;
    Time m_margin;
    double m_hysteresisFraction;
    DataRate m_nominalRate;
    bool m_learnRate;
    double m_learnedBytesPerS{0}; //!< per busiest rank, of the raised collectives; 0: none yet
};

} // namespace ns3

#endif /* SLACK_ADAPTIVE_PRIORITY_H */
