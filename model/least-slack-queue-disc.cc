/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "least-slack-queue-disc.h"

#include "ns3-compat.h"
#include "slack-ordered-queue.h"
#include "slack-tag.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeastSlackQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(LeastSlackQueueDisc);

TypeId
LeastSlackQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LeastSlackQueueDisc")
              .SetParent<QueueDisc>()
              .SetGroupName("Ddnn")
              .AddConstructor<LeastSlackQueueDisc>()
              .AddAttribute("MaxSize",
                            "The packets both bands hold together; beyond, the latest deadline "
                            "is dropped.",
                            QueueSizeValue(QueueSize("1000p")),
                            MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                            MakeQueueSizeChecker())
              .AddAttribute("Mode",
                            "Pure: the earlier deadline of the two bands' heads first. Hybrid: "
                            "the background first until the training head's slack is below "
                            "Margin.",
                            EnumValue(PURE),
                            DDNN_ENUM_ACCESSOR(Mode, &LeastSlackQueueDisc::m_mode),
                            MakeEnumChecker(PURE, "Pure", HYBRID, "Hybrid"))
              .AddAttribute("Margin",
                            "Hybrid: the slack below which a training packet goes before the "
                            "background (0: once it is late), at least 0.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LeastSlackQueueDisc::m_margin),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LinkRate",
                            "The rate of the link the disc feeds: a packet's transmission time, "
                            "which its slack leaves out.",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&LeastSlackQueueDisc::m_linkRate),
                            MakeDataRateChecker())
              .AddTraceSource("Served",
                              "A packet leaves: the packet, its band, the slack it had left.",
                              MakeTraceSourceAccessor(&LeastSlackQueueDisc::m_servedTrace),
                              "ns3::LeastSlackQueueDisc::ServedTracedCallback");
    return tid;
}

LeastSlackQueueDisc::LeastSlackQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES, QueueSizeUnit::PACKETS)
{
    NS_LOG_FUNCTION(this);
}

LeastSlackQueueDisc::~LeastSlackQueueDisc() = default;

uint32_t
LeastSlackQueueDisc::BandOfTenant(TenantKind::Tenant tenant)
{
    return tenant == TenantKind::TRAINING ? TRAINING_BAND : BACKGROUND_BAND;
}

uint32_t
LeastSlackQueueDisc::BandOf(Ptr<const Packet> packet)
{
    SlackTag tag;
    return BandOfTenant(packet->PeekPacketTag(tag) ? tag.GetTenant() : TenantKind::NONE);
}

uint64_t
LeastSlackQueueDisc::GetUntaggedPackets() const
{
    return m_untagged;
}

uint64_t
LeastSlackQueueDisc::GetLatePackets(uint32_t band) const
{
    return band < 2 ? m_late[band] : 0;
}

uint64_t
LeastSlackQueueDisc::GetServedPackets(uint32_t band) const
{
    return band < 2 ? m_served[band] : 0;
}

Ptr<SlackOrderedQueue>
LeastSlackQueueDisc::Band(uint32_t band) const
{
    return StaticCast<SlackOrderedQueue>(GetInternalQueue(band));
}

Time
LeastSlackQueueDisc::TxTime(Ptr<const QueueDiscItem> item) const
{
    return m_linkRate.CalculateBytesTxTime(item->GetSize());
}

bool
LeastSlackQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    SlackTag tag;
    if (!item->GetPacket()->PeekPacketTag(tag))
    {
        ++m_untagged;
        static bool told = false; // once per process: every egress may see them
        if (!told)
        {
            told = true;
            std::cerr << "ddnn: warning: the least-slack queue disc got a packet without a "
                         "slack tag (e.g. a reset TCP sends for a closed connection); such "
                         "packets are counted and served as the background's, due when they "
                         "arrive\n";
        }
    }
    if (GetCurrentSize() + item > GetMaxSize())
    {
        // The latest deadline goes: the arriving packet, or the latest one queued.
        const int64_t arriving = SlackOrderedQueue::DeadlineNsOf(item);
        int latest = -1;
        for (uint32_t b = 0; b < 2; ++b)
        {
            if (Band(b)->GetNPackets() > 0 && Band(b)->GetLatestDeadlineNs() > arriving
                && (latest < 0
                    || Band(b)->GetLatestDeadlineNs() > Band(latest)->GetLatestDeadlineNs()))
            {
                latest = static_cast<int>(b);
            }
        }
        if (latest < 0)
        {
            NS_LOG_LOGIC("full: the arriving packet has the most slack");
            DropBeforeEnqueue(item, MOST_SLACK_DROP);
            return false;
        }
        NS_LOG_LOGIC("full: drops a queued packet of band " << latest << " with more slack");
        DropAfterDequeue(Band(latest)->DequeueLatest(), MOST_SLACK_DROP);
    }
    return Band(BandOf(item->GetPacket()))->Enqueue(item);
}

uint32_t
LeastSlackQueueDisc::NextBand() const
{
    Ptr<SlackOrderedQueue> background = Band(BACKGROUND_BAND);
    Ptr<SlackOrderedQueue> training = Band(TRAINING_BAND);
    if (training->GetNPackets() == 0)
    {
        return BACKGROUND_BAND;
    }
    if (background->GetNPackets() == 0)
    {
        return TRAINING_BAND;
    }
    if (m_mode == PURE)
    {
        return training->GetEarliestDeadlineNs() < background->GetEarliestDeadlineNs()
                   ? TRAINING_BAND
                   : BACKGROUND_BAND;
    }
    const Time slack = NanoSeconds(training->GetEarliestDeadlineNs()) - Simulator::Now()
                       - TxTime(training->Peek());
    return slack < m_margin ? TRAINING_BAND : BACKGROUND_BAND;
}

Ptr<QueueDiscItem>
LeastSlackQueueDisc::DoDequeue()
{
    if (Band(BACKGROUND_BAND)->GetNPackets() == 0 && Band(TRAINING_BAND)->GetNPackets() == 0)
    {
        return nullptr;
    }
    const uint32_t band = NextBand();
    const int64_t deadline = Band(band)->GetEarliestDeadlineNs();
    Ptr<QueueDiscItem> item = Band(band)->Dequeue();
    const Time slack = NanoSeconds(deadline) - Simulator::Now() - TxTime(item);
    ++m_served[band];
    m_late[band] += slack.IsStrictlyNegative();
    m_servedTrace(item, band, slack);
    return item;
}

bool
LeastSlackQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("LeastSlackQueueDisc takes no classes and no packet filters");
        return false;
    }
    if (GetMaxSize().GetUnit() != QueueSizeUnit::PACKETS)
    {
        NS_LOG_ERROR("LeastSlackQueueDisc counts its MaxSize in packets");
        return false;
    }
    if (GetNInternalQueues() == 0)
    {
        for (uint32_t b = 0; b < 2; ++b)
        {
            ObjectFactory factory;
            factory.SetTypeId(SlackOrderedQueue::GetTypeId());
            factory.Set("MaxSize", QueueSizeValue(GetMaxSize()));
            AddInternalQueue(factory.Create<SlackOrderedQueue>());
        }
    }
    if (GetNInternalQueues() != 2 || !DynamicCast<SlackOrderedQueue>(GetInternalQueue(0))
        || !DynamicCast<SlackOrderedQueue>(GetInternalQueue(1)))
    {
        NS_LOG_ERROR("LeastSlackQueueDisc needs its own 2 internal queues");
        return false;
    }
    return true;
}

void
LeastSlackQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
}

} // namespace ns3
