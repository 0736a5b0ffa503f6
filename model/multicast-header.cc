/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MulticastHeader);

TypeId
MulticastHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MulticastHeader")
                            .SetParent<Header>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<MulticastHeader>();
    return tid;
}

TypeId
MulticastHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MulticastHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MulticastHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(type);
    start.WriteHtonU16(receiver);
    start.WriteHtonU32(message);
    start.WriteHtonU64(messageBytes);
    start.WriteHtonU32(a);
    start.WriteHtonU32(b);
}

uint32_t
MulticastHeader::Deserialize(Buffer::Iterator start)
{
    type = start.ReadU8();
    receiver = start.ReadNtohU16();
    message = start.ReadNtohU32();
    messageBytes = start.ReadNtohU64();
    a = start.ReadNtohU32();
    b = start.ReadNtohU32();
    return SIZE;
}

void
MulticastHeader::Print(std::ostream& os) const
{
    os << (type == DATA   ? "DATA"
           : type == NACK ? "NACK"
                          : "DONE")
       << " message " << message << " (" << messageBytes << " B) receiver " << receiver << " a "
       << a << " b " << b;
}

} // namespace ns3
