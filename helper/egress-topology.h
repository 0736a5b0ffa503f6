/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EGRESS_TOPOLOGY_H
#define EGRESS_TOPOLOGY_H

#include "ns3/egress-queue.h"
#include "ns3/server-topology.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief What every topology ddnn builds (SingleTorHelper, LeafSpineHelper, FatTreeHelper)
 * shares: the EgressQueue on every egress (QueueDisc, QueueDiscLimitPackets,
 * EcnThresholdPackets, BandWeights; ServerBandLimitPackets for the servers' own) over a
 * device queue of DeviceQueuePackets, and the servers as a ServerList.
 */
class EgressTopology : public ServerList
{
  public:
    static TypeId GetTypeId();

  protected:
    /** The switches' egress queue of the attributes (the link's rate and delay not set). */
    EgressQueue MakeEgress() const;
    /** The servers' egress queue: the switches' with ServerBandLimitPackets per band. */
    EgressQueue MakeServerEgress() const;
    /** Each device's transmit queue, in packets. */
    uint32_t GetDeviceQueuePackets() const;
    /** ServerBandLimitPackets. */
    uint32_t GetServerBandLimit() const;

  private:
    uint32_t m_deviceQueuePackets;
    uint32_t m_queueDiscLimit;
    uint32_t m_serverBandLimit;
    EgressQueue::Kind m_queueKind;
    uint32_t m_ecnThreshold;
    std::string m_bandWeights;
};

} // namespace ns3

#endif /* EGRESS_TOPOLOGY_H */
