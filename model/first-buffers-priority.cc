/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "first-buffers-priority.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FirstBuffersPriority");

NS_OBJECT_ENSURE_REGISTERED(FirstBuffersPriority);

[[maybe_unused]] static const bool g_registered
    = BufferPriorityPolicy::Register("first-k", &FirstBuffersPriority::GetTypeId);

TypeId
FirstBuffersPriority::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FirstBuffersPriority")
              .SetParent<BufferPriorityPolicy>()
              .SetGroupName("Ddnn")
              .AddConstructor<FirstBuffersPriority>()
              .AddAttribute("Count",
                            "How many buffers, from the one holding layer 0 up, travel at Tos.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&FirstBuffersPriority::m_count),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("Tos",
                            "Their IP ToS (0x10 -> PfifoFast band 0).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&FirstBuffersPriority::m_tos),
                            MakeUintegerChecker<uint8_t>());
    return tid;
}

int
FirstBuffersPriority::GetTos(Ptr<const DnnModel> model, uint32_t buffer) const
{
    // Buffers hold contiguous layers in backward order: the last m_count buffers hold the
    // lowest layers.
    const uint32_t buffers = model->GetBufferCount();
    return buffer + m_count >= buffers ? m_tos : -1;
}

} // namespace ns3
