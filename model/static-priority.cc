/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "static-priority.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StaticPriority");

NS_OBJECT_ENSURE_REGISTERED(StaticPriority);

[[maybe_unused]] static const bool g_registered
    = BufferPriorityPolicy::Register("static", &StaticPriority::GetTypeId);

TypeId
StaticPriority::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StaticPriority")
                            .SetParent<BufferPriorityPolicy>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<StaticPriority>();
    return tid;
}

int
StaticPriority::GetTos(Ptr<const DnnModel>, uint32_t) const
{
    return -1;
}

} // namespace ns3
