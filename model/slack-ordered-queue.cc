/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "slack-ordered-queue.h"

#include "ns3-compat.h"
#include "slack-tag.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlackOrderedQueue");
NS_OBJECT_ENSURE_REGISTERED(SlackOrderedQueue);

TypeId
SlackOrderedQueue::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SlackOrderedQueue")
              .SetParent<Queue<QueueDiscItem>>()
              .SetGroupName("Ddnn")
              .AddConstructor<SlackOrderedQueue>()
// Up to ns-3.30 QueueBase has this attribute itself (100 packets by default).
#if DDNN_NS3_AT_LEAST(31)
              .AddAttribute("MaxSize",
                            "The most items the queue holds.",
                            QueueSizeValue(QueueSize("1000p")),
                            MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                            MakeQueueSizeChecker())
#endif
        ;
    return tid;
}

SlackOrderedQueue::SlackOrderedQueue()
    : NS_LOG_TEMPLATE_DEFINE("SlackOrderedQueue")
{
}

SlackOrderedQueue::~SlackOrderedQueue() = default;

int64_t
SlackOrderedQueue::DeadlineNsOf(Ptr<const QueueDiscItem> item)
{
    SlackTag tag;
    return item->GetPacket()->PeekPacketTag(tag) ? tag.GetDeadlineNs()
                                                 : Simulator::Now().GetNanoSeconds();
}

bool
SlackOrderedQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
#if DDNN_NS3_AT_LEAST(36)
    const ConstIterator end = GetContainer().end();
#else
    const ConstIterator end = this->end();
#endif
    const int64_t deadline = DeadlineNsOf(item);
#if DDNN_NS3_AT_LEAST(34)
    Iterator at;
    if (!DoEnqueue(end, item, at))
    {
        return false;
    }
#else
    // Up to ns-3.33 DoEnqueue does not say where the item went: at the end, where it was put.
    if (!DoEnqueue(end, item))
    {
        return false;
    }
    const ConstIterator at = std::prev(this->end());
#endif
    m_order.insert({deadline, m_arrivals++, at});
    return true;
}

SlackOrderedQueue::ConstIterator
SlackOrderedQueue::Unindex(bool earliest)
{
    const auto entry = earliest ? m_order.begin() : std::prev(m_order.end());
    const ConstIterator at = entry->at;
    m_order.erase(entry);
    return at;
}

Ptr<QueueDiscItem>
SlackOrderedQueue::Dequeue()
{
    return m_order.empty() ? nullptr : DoDequeue(Unindex(true));
}

Ptr<QueueDiscItem>
SlackOrderedQueue::Remove()
{
    return m_order.empty() ? nullptr : DoRemove(Unindex(false));
}

Ptr<QueueDiscItem>
SlackOrderedQueue::DequeueLatest()
{
    return m_order.empty() ? nullptr : DoDequeue(Unindex(false));
}

Ptr<const QueueDiscItem>
SlackOrderedQueue::Peek() const
{
    return m_order.empty() ? nullptr : DoPeek(m_order.begin()->at);
}

Ptr<const QueueDiscItem>
SlackOrderedQueue::PeekLatest() const
{
    return m_order.empty() ? nullptr : DoPeek(std::prev(m_order.end())->at);
}

int64_t
SlackOrderedQueue::GetEarliestDeadlineNs() const
{
    return m_order.begin()->deadlineNs;
}

int64_t
SlackOrderedQueue::GetLatestDeadlineNs() const
{
    return std::prev(m_order.end())->deadlineNs;
}

} // namespace ns3
