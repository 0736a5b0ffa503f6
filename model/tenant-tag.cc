/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tenant-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TenantTag);

TypeId
TenantTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TenantTag")
                            .SetParent<Tag>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<TenantTag>();
    return tid;
}

TypeId
TenantTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

TenantTag::TenantTag(Tenant tenant)
    : m_tenant(tenant)
{
}

TenantTag::Tenant
TenantTag::GetTenant() const
{
    return m_tenant;
}

uint32_t
TenantTag::GetSerializedSize() const
{
    return 1;
}

void
TenantTag::Serialize(TagBuffer i) const
{
    i.WriteU8(m_tenant);
}

void
TenantTag::Deserialize(TagBuffer i)
{
    m_tenant = static_cast<Tenant>(i.ReadU8());
}

void
TenantTag::Print(std::ostream& os) const
{
    os << "tenant=" << static_cast<int>(m_tenant);
}

} // namespace ns3
