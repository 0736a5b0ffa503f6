/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IDEAL_PARTITION_TRANSPORT_H
#define IDEAL_PARTITION_TRANSPORT_H

#include "partition-transport.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <map>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Partitions without packets: the worker's uplink sends one transfer at a time at
 * DataRate, and each arrives StepLatency after it left. An allreduce of S bytes over N workers
 * on a ring then takes 2(N-1)/N * S / DataRate plus 2(N-1) step latencies (thesis eq. 4.1).
 */
class IdealPartitionTransport : public PartitionTransport
{
  public:
    static TypeId GetTypeId();
    IdealPartitionTransport();

    void Open(Ptr<Node> node,
              uint32_t rank,
              const std::vector<Peer>& sendTo,
              const std::vector<Peer>& receiveFrom) override;
    void Send(uint32_t peer, uint64_t bytes) override;
    /** An ideal multicast: one transfer's time, then the bytes arrive at every peer. */
    void SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes) override;
    bool SetMulticast(bool on) override;
    void Close() override;
    std::string Describe() const override;

  protected:
    void DoDispose() override;

  private:
    void Arrive(uint32_t from, uint64_t bytes);

    DataRate m_rate;
    Time m_latency;

    uint32_t m_rank{0};
    std::map<uint32_t, Ptr<IdealPartitionTransport>> m_peers; //!< by rank
    Time m_busyUntil;
    bool m_closed{false};
    bool m_multicast{false}; //!< SetMulticast()
};

} // namespace ns3

#endif /* IDEAL_PARTITION_TRANSPORT_H */
