/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_LEASE_H
#define AGGREGATION_LEASE_H

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The slots an AggregatingSwitch lends one training job (AggregatingSwitch::Lease):
 * where its workers' AggregationClients send their chunks, under which job number, and the
 * pool they share.
 */
struct AggregationLease : public SimpleRefCount<AggregationLease>
{
    Ipv4Address address; //!< the switch's (an address of one of its interfaces)
    uint16_t port{0};    //!< the switch's UDP port
    uint16_t job{0};     //!< the job's number at the switch
    uint32_t workers{0};
    uint32_t slots{0};      //!< the pool: chunks a worker may have out at once
    uint32_t slotBytes{0};  //!< payload bytes of a slot, and of a chunk
    Time retransmitTimeout; //!< a worker sends a chunk again after waiting this long
};

} // namespace ns3

#endif /* AGGREGATION_LEASE_H */
