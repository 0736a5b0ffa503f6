/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SLACK_ORDERED_QUEUE_H
#define SLACK_ORDERED_QUEUE_H

#include "ns3/log.h"
#include "ns3/queue-item.h"
#include "ns3/queue.h"

#include <set>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A queue of QueueDiscItems served earliest deadline first (each item's SlackTag; an
 * untagged item is due when it arrives), items of one deadline in arrival order, so that the
 * segments of one connection never overtake each other. Each operation costs O(log n): an ordered
 * index over the base class's list. Dequeue takes the earliest deadline, Remove the latest (counted
 * as dequeued and dropped, as Queue::Remove is).
 */
class SlackOrderedQueue : public Queue<QueueDiscItem>
{
  public:
    static TypeId GetTypeId();
    SlackOrderedQueue();
    ~SlackOrderedQueue() override;

    /** The deadline of `item` in ns: its SlackTag's, or now for an untagged one. */
    static int64_t DeadlineNsOf(Ptr<const QueueDiscItem> item);

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    /** The item with the earliest deadline. */
    Ptr<QueueDiscItem> Dequeue() override;
    /** The item with the latest deadline, counted as dropped. */
    Ptr<QueueDiscItem> Remove() override;
    /** The item with the latest deadline, counted as dequeued (its owner drops it). */
    Ptr<QueueDiscItem> DequeueLatest();
    /** The item Dequeue would return. */
    Ptr<const QueueDiscItem> Peek() const override;
    /** The item Remove would return. */
    Ptr<const QueueDiscItem> PeekLatest() const;
    /** The deadline of Peek()'s item, of PeekLatest()'s (ns); only when not empty. */
    int64_t GetEarliestDeadlineNs() const;
    int64_t GetLatestDeadlineNs() const;

  private:
    struct Entry
    {
        int64_t deadlineNs;
        uint64_t arrival; //!< ties: first come, first served
        ConstIterator at; //!< in the base class's list

        bool
        operator<(const Entry& other) const
        {
            return deadlineNs != other.deadlineNs ? deadlineNs < other.deadlineNs
                                                  : arrival < other.arrival;
        }
    };

    /** Takes the earliest (or latest) entry out of the index; not when empty. */
    ConstIterator Unindex(bool earliest);

    std::set<Entry> m_order;
    uint64_t m_arrivals{0};
    /** Its own log component: Queue<QueueDiscItem>'s g_log is private to it. */
    NS_LOG_TEMPLATE_DECLARE;

    using Queue<QueueDiscItem>::DoEnqueue;
    using Queue<QueueDiscItem>::DoDequeue;
    using Queue<QueueDiscItem>::DoRemove;
    using Queue<QueueDiscItem>::DoPeek;
};

} // namespace ns3

#endif /* SLACK_ORDERED_QUEUE_H */
