/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SLACK_TAG_H
#define SLACK_TAG_H

#include "tenant-kind.h"

#include "ns3/nstime.h"
#include "ns3/tag.h"

namespace ns3
{

class Packet;

/**
 * \ingroup ddnn
 * \brief A packet's deadline: the simulated time by which what it carries is due, and the
 * tenant it belongs to. A queue disc that orders by slack (LeastSlackQueueDisc) reads it; its
 * remaining slack at a hop is the deadline less the time then, less its transmission time.
 *
 * A training packet carries the deadline of its fusion buffer (when the next forward pass first
 * needs it, at the compute-bound pace); a background packet its flow's start plus its
 * class's budget; an ACK the tag of the data it acknowledges. SlackMarker puts them on.
 */
class SlackTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    SlackTag();
    SlackTag(int64_t deadlineNs, TenantKind::Tenant tenant);

    int64_t GetDeadlineNs() const;
    TenantKind::Tenant GetTenant() const;
    /** The slack left at `now` for a packet of `txTime` (negative: late). */
    Time GetSlack(Time now, Time txTime) const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    int64_t m_deadlineNs;
    TenantKind::Tenant m_tenant;
};

} // namespace ns3

#endif /* SLACK_TAG_H */
