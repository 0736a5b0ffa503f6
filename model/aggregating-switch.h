/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATING_SWITCH_H
#define AGGREGATING_SWITCH_H

#include "aggregation-lease.h"

#include "ns3/application.h"
#include "ns3/inet-socket-address.h"
#include "ns3/socket.h"
#include "ns3/traced-value.h"

#include <map>
#include <vector>

struct ddnn_agg_switch;
struct ddnn_agg_chunk_message;

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A switch that sums training jobs' gradients itself (in-network aggregation after
 * SwitchML's slot protocol, ddnn-aggregation.h): an application on the switch node that
 * receives the workers' chunks on UDP Port, adds each into its slot and, when every worker of
 * the job has contributed, sends the sum back to each worker as one unicast per worker.
 *
 * Its slot memory is MemoryBytes, shared by the jobs that lease slots (Lease); a job the rest
 * of it cannot hold gets no lease (and falls back to another collective,
 * AggregationHelper::Join). The workers are learned from the source address and port of their
 * contributions; a result leaves at the ToS of the contribution that completed it, so it
 * takes the band the job's priority gives its chunks.
 *
 * On a one-switch tree, N unicasts put on each worker's link the bytes a multicast would:
 * the replication inside the switch is not modelled.
 */
class AggregatingSwitch : public Application
{
  public:
    static TypeId GetTypeId();
    AggregatingSwitch();
    ~AggregatingSwitch() override;

    /**
     * Lends `slots` slots of `slotBytes` to a job of `workers` workers (2..1024) whose workers
     * wait `retransmitTimeout` for a result before sending a chunk again; null when the memory
     * left holds fewer slots. A DdnnError when MemoryBytes holds no slot at all, or for
     * values out of range.
     */
    Ptr<const AggregationLease> Lease(uint32_t workers,
                                      uint32_t slots,
                                      uint32_t slotBytes,
                                      Time retransmitTimeout);
    /** Slot memory lent now, and the most ever lent (bytes). */
    uint64_t GetMemoryInUse() const;
    uint64_t GetMaxMemoryInUse() const;
    uint64_t GetMemoryBytes() const;

    /** Totals since the start. */
    struct Stats
    {
        uint64_t contributions{0}; //!< chunks added into a slot
        uint64_t repeats{0};       //!< chunks a slot already had (retransmissions)
        uint64_t stale{0};         //!< chunks for a slot that has moved on
        uint64_t results{0};       //!< chunks summed
        uint64_t resent{0};        //!< results sent again to one worker
    };
    Stats GetStats() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void HandleRead(Ptr<Socket> socket);
    static int SendResult(void* ctx, const ddnn_agg_chunk_message* result);
    void SendTo(const InetSocketAddress& worker, Ptr<Packet> packet);

    uint64_t m_memoryBytes;
    uint16_t m_port;

    ddnn_agg_switch* m_switch{nullptr};
    Ptr<Socket> m_socket;
    std::vector<Ptr<const AggregationLease>> m_leases; //!< by job number
    /** (job, worker) -> where its contributions come from. */
    std::map<std::pair<uint16_t, uint16_t>, InetSocketAddress> m_workers;
    uint8_t m_resultTos{0}; //!< the ToS of the contribution being handled
    TracedValue<uint64_t> m_memoryInUse;
    uint64_t m_maxMemoryInUse{0};
};

} // namespace ns3

#endif /* AGGREGATING_SWITCH_H */
