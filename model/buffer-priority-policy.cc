/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "buffer-priority-policy.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BufferPriorityPolicy");

NS_OBJECT_ENSURE_REGISTERED(BufferPriorityPolicy);

TypeId
BufferPriorityPolicy::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::BufferPriorityPolicy").SetParent<Object>().SetGroupName("Ddnn");
    return tid;
}

DDNN_TYPE_REGISTRY(BufferPriorityPolicy, "priority policy");

void
BufferPriorityPolicy::Prepare(Ptr<const DnnModel>)
{
}

bool
BufferPriorityPolicy::DecidesFromProgress() const
{
    return false;
}

int64_t
BufferPriorityPolicy::GetRecheckDelayNs(const Progress&) const
{
    return -1;
}

void
BufferPriorityPolicy::CollectiveEnded(const Progress&, const std::map<uint8_t, uint64_t>&)
{
}

int
BufferPriorityPolicy::Decide(Ptr<const DnnModel> model, const Progress& progress)
{
    return GetTos(model, progress.buffer);
}

int
BufferPriorityPolicy::GetAckTos() const
{
    return -1;
}

std::set<uint8_t>
BufferPriorityPolicy::GetTosValues(Ptr<const DnnModel> model) const
{
    std::set<uint8_t> values;
    for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
    {
        if (const int tos = GetTos(model, b); tos >= 0)
        {
            values.insert(static_cast<uint8_t>(tos));
        }
    }
    return values;
}

} // namespace ns3
