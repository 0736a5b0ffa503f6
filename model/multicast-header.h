/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MULTICAST_HEADER_H
#define MULTICAST_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The reliable multicast transport's header (ddnn-multicast.h), at the start of every
 * UDP payload: what the message is, and per type what the packet says.
 *
 * - DATA (sender to group): packet `a` of message `message` of `messageBytes` bytes cut
 *   into packets of `b` bytes; the payload follows (its bytes carry nothing: the simulation
 *   moves sizes).
 * - NACK (receiver to sender): receiver `receiver` misses packets [a, a + b).
 * - DONE (receiver to sender): receiver `receiver` has the whole message.
 *
 * 23 bytes on the wire, in network byte order.
 */
class MulticastHeader : public Header
{
  public:
    enum Type : uint8_t
    {
        DATA = 1,
        NACK = 2,
        DONE = 3
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** Bytes of the header on the wire. */
    static constexpr uint32_t SIZE = 23;

    uint8_t type{DATA};
    uint16_t receiver{0};
    uint32_t message{0};
    uint64_t messageBytes{0};
    uint32_t a{0};
    uint32_t b{0};
};

} // namespace ns3

#endif /* MULTICAST_HEADER_H */
