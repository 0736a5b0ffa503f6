/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AggregationHeader);

TypeId
AggregationHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationHeader")
                            .SetParent<Header>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<AggregationHeader>();
    return tid;
}

TypeId
AggregationHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
AggregationHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AggregationHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(type);
    start.WriteHtonU16(job);
    start.WriteHtonU16(worker);
    start.WriteHtonU32(chunk);
    start.WriteHtonU32(slot);
    start.WriteHtonU32(length);
    start.WriteHtonU64(static_cast<uint64_t>(value));
}

uint32_t
AggregationHeader::Deserialize(Buffer::Iterator start)
{
    type = start.ReadU8();
    job = start.ReadNtohU16();
    worker = start.ReadNtohU16();
    chunk = start.ReadNtohU32();
    slot = start.ReadNtohU32();
    length = start.ReadNtohU32();
    value = static_cast<int64_t>(start.ReadNtohU64());
    return SIZE;
}

void
AggregationHeader::Print(std::ostream& os) const
{
    os << (type == CONTRIBUTION ? "CONTRIBUTION" : "RESULT") << " job " << job << " worker "
       << worker << " chunk " << chunk << " slot " << slot << " length " << length << " value "
       << value;
}

} // namespace ns3
