/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_HEADER_H
#define AGGREGATION_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief In-network aggregation's header, at the start of every UDP payload between a
 * worker's AggregationClient and an AggregatingSwitch:
 *
 * - CONTRIBUTION (worker to switch): worker `worker` of job `job` adds `value` to chunk
 *   `chunk` (`length` bytes) in slot `slot`;
 * - RESULT (switch to worker): the sum `value` of every worker's contribution to `chunk`.
 *
 * `length` payload bytes follow (they carry nothing: the simulation moves sizes, and `value`
 * stands for the numbers). 25 bytes on the wire, in network byte order.
 */
class AggregationHeader : public Header
{
  public:
    enum Type : uint8_t
    {
        CONTRIBUTION = 1,
        RESULT = 2
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** Bytes of the header on the wire. */
    static constexpr uint32_t SIZE = 25;

    uint8_t type{CONTRIBUTION};
    uint16_t job{0};
    uint16_t worker{0};
    uint32_t chunk{0};
    uint32_t slot{0};
    uint32_t length{0};
    int64_t value{0};
};

} // namespace ns3

#endif /* AGGREGATION_HEADER_H */
