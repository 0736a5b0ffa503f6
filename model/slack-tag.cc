/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "slack-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlackTag");
NS_OBJECT_ENSURE_REGISTERED(SlackTag);

TypeId
SlackTag::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SlackTag").SetParent<Tag>().SetGroupName("Ddnn").AddConstructor<SlackTag>();
    return tid;
}

TypeId
SlackTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

SlackTag::SlackTag()
    : SlackTag(0, TenantKind::NONE)
{
}

SlackTag::SlackTag(int64_t deadlineNs, TenantKind::Tenant tenant)
    : m_deadlineNs(deadlineNs)
    , m_tenant(tenant)
{
}

int64_t
SlackTag::GetDeadlineNs() const
{
    return m_deadlineNs;
}

TenantKind::Tenant
SlackTag::GetTenant() const
{
    return m_tenant;
}

Time
SlackTag::GetSlack(Time now, Time txTime) const
{
    return NanoSeconds(m_deadlineNs) - now - txTime;
}

uint32_t
SlackTag::GetSerializedSize() const
{
    return sizeof(int64_t) + 1;
}

void
SlackTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU64(static_cast<uint64_t>(m_deadlineNs));
    buffer.WriteU8(m_tenant);
}

void
SlackTag::Deserialize(TagBuffer buffer)
{
    m_deadlineNs = static_cast<int64_t>(buffer.ReadU64());
    const uint8_t tenant = buffer.ReadU8();
    m_tenant = tenant == TenantKind::TRAINING || tenant == TenantKind::BACKGROUND
                   ? static_cast<TenantKind::Tenant>(tenant)
                   : TenantKind::NONE;
}

void
SlackTag::Print(std::ostream& os) const
{
    os << "deadline=" << m_deadlineNs << "ns tenant=" << +m_tenant;
}

} // namespace ns3
