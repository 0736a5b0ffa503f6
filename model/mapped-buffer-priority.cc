/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mapped-buffer-priority.h"

#include "one-line-error.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <cstdlib>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MappedBufferPriority");

NS_OBJECT_ENSURE_REGISTERED(MappedBufferPriority);

[[maybe_unused]] static const bool g_registered
    = BufferPriorityPolicy::Register("mapped", &MappedBufferPriority::GetTypeId);

TypeId
MappedBufferPriority::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MappedBufferPriority")
              .SetParent<BufferPriorityPolicy>()
              .SetGroupName("Ddnn")
              .AddConstructor<MappedBufferPriority>()
              .AddAttribute(
                  "Map",
                  "BUFFER=TOS pairs separated by commas, e.g. \"0=8,18=16\".",
                  StringValue(""),
                  MakeStringAccessor(&MappedBufferPriority::SetMap, &MappedBufferPriority::GetMap),
                  MakeStringChecker());
    return tid;
}

void
MappedBufferPriority::SetMap(std::string text)
{
    NS_LOG_FUNCTION(this << text);
    std::map<uint32_t, uint8_t> map;
    std::stringstream pairs(text);
    std::string pair;
    while (std::getline(pairs, pair, ','))
    {
        char* end = nullptr;
        const unsigned long buffer = std::strtoul(pair.c_str(), &end, 10);
        const bool separated = end != pair.c_str() && *end == '=';
        char* tosEnd = nullptr;
        const unsigned long tos = separated ? std::strtoul(end + 1, &tosEnd, 0) : 0;
        if (!separated || tosEnd == end + 1 || *tosEnd != '\0' || tos > 255 || buffer > 0xffffffffUL
            || map.count(buffer))
        {
            throw DdnnError("ns3::MappedBufferPriority::Map: expected BUFFER=TOS pairs (TOS at "
                            "most 255, each buffer once), got '"
                            + pair + "' in '" + text + "'");
        }
        map[buffer] = static_cast<uint8_t>(tos);
    }
    m_text = text;
    m_map = map;
}

std::string
MappedBufferPriority::GetMap() const
{
    return m_text;
}

int
MappedBufferPriority::GetTos(Ptr<const DnnModel>, uint32_t buffer) const
{
    auto it = m_map.find(buffer);
    return it == m_map.end() ? -1 : it->second;
}

} // namespace ns3
