/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAST_SLACK_QUEUE_DISC_H
#define LEAST_SLACK_QUEUE_DISC_H

#include "tenant-kind.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class SlackOrderedQueue;

/**
 * \ingroup ddnn
 * \brief Least slack first: serves the packet whose SlackTag leaves it the least slack
 * (deadline − now − its transmission time at LinkRate), after Mittal et al., Universal Packet
 * Scheduling (NSDI'16). Packets of one deadline leave in arrival order within a tenant (so a
 * connection's segments keep their order), the background's before the training's. A packet's
 * deadline is absolute, so its slack falls by the time it waits at every hop.
 *
 * Two internal SlackOrderedQueues, one per tenant: band 0 the background (and untagged packets:
 * counted, due on arrival, said once), band 1 the training jobs. Mode Pure serves the earlier
 * deadline of the two heads. Mode Hybrid serves the background first, as strict priority would,
 * until the training head's slack falls below Margin: then that packet goes first, so a
 * collective that yielded is served in time without its sender raising its priority.
 *
 * MaxSize packets in all; when it is exceeded the packet with the latest deadline (the arriving
 * one or one queued, of either tenant) is dropped: before enqueue if it is the arriving one,
 * else after dequeue ("Most slack").
 */
class LeastSlackQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();
    LeastSlackQueueDisc();
    ~LeastSlackQueueDisc() override;

    enum Mode
    {
        PURE,
        HYBRID
    };

    static constexpr uint32_t BACKGROUND_BAND = 0; //!< background and untagged packets
    static constexpr uint32_t TRAINING_BAND = 1;
    /** The reason of a packet dropped for having the most slack when the queue was full. */
    static constexpr const char* MOST_SLACK_DROP = "Most slack";

    /** The band of a tenant's packets. */
    static uint32_t BandOfTenant(TenantKind::Tenant tenant);
    /** The band of a packet: by its SlackTag's tenant; untagged: the background's. */
    static uint32_t BandOf(Ptr<const Packet> packet);
    /** Packets that arrived without a SlackTag. */
    uint64_t GetUntaggedPackets() const;
    /** Packets of `band` served with no slack left (negative slack). */
    uint64_t GetLatePackets(uint32_t band) const;
    /** Packets of `band` served. */
    uint64_t GetServedPackets(uint32_t band) const;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    Ptr<SlackOrderedQueue> Band(uint32_t band) const;
    /** The transmission time of `item` at LinkRate. */
    Time TxTime(Ptr<const QueueDiscItem> item) const;
    /** The band Dequeue serves next. */
    uint32_t NextBand() const;

    Mode m_mode;
    Time m_margin;
    DataRate m_linkRate;
    uint64_t m_untagged{0};
    uint64_t m_late[2]{0, 0};
    uint64_t m_served[2]{0, 0};
    /** (item, band, slack left when served) */
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, Time> m_servedTrace;
};

} // namespace ns3

#endif /* LEAST_SLACK_QUEUE_DISC_H */
