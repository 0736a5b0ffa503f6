/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "slack-adaptive-priority.h"

#include "ddnn-training.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlackAdaptivePriority");

NS_OBJECT_ENSURE_REGISTERED(SlackAdaptivePriority);

[[maybe_unused]] static const bool g_registered
    = BufferPriorityPolicy::Register("slack-adaptive", &SlackAdaptivePriority::GetTypeId);

TypeId
SlackAdaptivePriority::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SlackAdaptivePriority")
              .SetParent<BufferPriorityPolicy>()
              .SetGroupName("Ddnn")
              .AddConstructor<SlackAdaptivePriority>()
              .AddAttribute("LowTos",
                            "The ToS a buffer yields at (0x08 -> PfifoFast band 2).",
                            UintegerValue(0x08),
                            MakeUintegerAccessor(&SlackAdaptivePriority::m_lowTos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("HighTos",
                            "The ToS a buffer short of slack is raised to (0x10 -> PfifoFast "
                            "band 0, the background's).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&SlackAdaptivePriority::m_highTos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("MarginFraction",
                            "The margin of slack below which a step is raised, as a fraction of "
                            "the compute-bound iteration (added to Margin).",
                            DoubleValue(0.05),
                            MakeDoubleAccessor(&SlackAdaptivePriority::m_marginFraction),
                            MakeDoubleChecker<double>(0, 10))
              .AddAttribute("Margin",
                            "The absolute part of the margin (added to MarginFraction's).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&SlackAdaptivePriority::m_margin),
                            MakeTimeChecker(Seconds(0), Seconds(1000)))
              .AddAttribute("HysteresisFraction",
                            "How far above the margin, as a fraction of the compute-bound "
                            "iteration, the slack of a raised collective must climb before its "
                            "next step is lowered again.",
                            DoubleValue(0.02),
                            MakeDoubleAccessor(&SlackAdaptivePriority::m_hysteresisFraction),
                            MakeDoubleChecker<double>(0, 10))
              .AddAttribute("NominalRate",
                            "The rate each sending rank is assumed to reach before any byte of a "
                            "collective has arrived (then the rate achieved is used).",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&SlackAdaptivePriority::m_nominalRate),
                            MakeDataRateChecker())
              .AddAttribute("LearnRate",
                            "Time the buffers still to come, and a collective before its first "
                            "byte arrives, at the rate the job's collectives wholly at HighTos "
                            "achieved (a running mean, weight 1/4, of the busiest rank's bytes "
                            "per second) once one has ended, when that is below NominalRate: "
                            "next to other tenants a raised collective is slower than the links. "
                            "It raises earlier: less slowdown, and less gain.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&SlackAdaptivePriority::m_learnRate),
                            MakeBooleanChecker());
    return tid;
}

SlackAdaptivePriority::SlackAdaptivePriority()
{
    NS_LOG_FUNCTION(this);
}

int
SlackAdaptivePriority::GetTos(Ptr<const DnnModel>, uint32_t) const
{
    return m_lowTos;
}

std::set<uint8_t>
SlackAdaptivePriority::GetTosValues(Ptr<const DnnModel>) const
{
    return {m_lowTos, m_highTos};
}

int
SlackAdaptivePriority::GetAckTos() const
{
    return m_highTos;
}

int64_t
SlackAdaptivePriority::GetSlackNs(const Progress& progress) const
{
    // Before any byte arrived: every rank at the nominal rate, so the collective lasts as long
    // as its busiest rank's bytes take.
    const double nominalPerRank = m_nominalRate.GetBitRate() / 8.0;
    const double perRank
        = m_learnedBytesPerS > 0 ? std::min(nominalPerRank, m_learnedBytesPerS) : nominalPerRank;
    const double nominal
        = progress.busiestBytes > 0
              ? perRank * progress.bytesTotal / static_cast<double>(progress.busiestBytes)
              : perRank;
    // The buffers behind this one must be done by its deadline too: their time at the
    // nominal rate is not this one's to spend.
    const double backlogNs = progress.backlogBusiestBytes * 1e9 / perRank;
    const int64_t slack = ddnn_slack_ns(progress.deadlineNs,
                                        progress.nowNs,
                                        progress.startedNs,
                                        progress.bytesTotal,
                                        progress.bytesDone,
                                        nominal > 0 ? nominal : 1);
    return slack - static_cast<int64_t>(std::min(backlogNs, 4e18));
}

double
SlackAdaptivePriority::GetMarginNs(const Progress& progress) const
{
    return m_marginFraction * static_cast<double>(progress.iterationNs) + m_margin.GetNanoSeconds();
}

int64_t
SlackAdaptivePriority::GetRecheckDelayNs(const Progress& progress) const
{
    if (progress.currentTos == m_highTos || m_highTos == m_lowTos)
    {
        return -1; // a raised step is lowered at a step boundary only
    }
    // With nothing delivered the slack shrinks as fast as time passes.
    const double margin = GetMarginNs(progress);
    const double untilMargin = static_cast<double>(GetSlackNs(progress)) - margin + 1;
    return static_cast<int64_t>(std::min(std::max({untilMargin, margin / 10, 1e3}), 4e18));
}

void
SlackAdaptivePriority::CollectiveEnded(const Progress& progress,
                                       const std::map<uint8_t, uint64_t>& nsAtTos)
{
    const uint64_t ns = progress.nowNs - progress.startedNs;
    if (!m_learnRate || ns == 0 || progress.busiestBytes == 0 || nsAtTos.size() != 1
        || nsAtTos.begin()->first != m_highTos)
    {
        return;
    }
    const double rate = progress.busiestBytes * 1e9 / static_cast<double>(ns);
    m_learnedBytesPerS = m_learnedBytesPerS > 0 ? 0.75 * m_learnedBytesPerS + 0.25 * rate : rate;
    NS_LOG_DEBUG("buffer " << progress.buffer << " of iteration " << progress.iteration
                           << " wholly raised: " << rate << " B/s, learned " << m_learnedBytesPerS);
}

int
SlackAdaptivePriority::Decide(Ptr<const DnnModel>, const Progress& progress)
{
    const double iteration = static_cast<double>(progress.iterationNs);
    const double margin = GetMarginNs(progress);
    const double lowerAbove = margin + m_hysteresisFraction * iteration;
    const double slack = static_cast<double>(GetSlackNs(progress));
    const bool raised = progress.currentTos == m_highTos && m_highTos != m_lowTos;
    const bool raise = raised ? slack < lowerAbove : slack < margin;
    NS_LOG_DEBUG("buffer " << progress.buffer << " of iteration " << progress.iteration << ", step "
                           << progress.step << ": slack " << slack << " ns, margin " << margin
                           << " ns: " << (raise ? "high" : "low"));
    return raise ? m_highTos : m_lowTos;
}

bool
SlackAdaptivePriority::DecidesFromProgress() const
{
    return true;
}

} // namespace ns3
