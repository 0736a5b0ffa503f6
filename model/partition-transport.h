/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PARTITION_TRANSPORT_H
#define PARTITION_TRANSPORT_H

#include "aggregation-lease.h"
#include "type-id-registry.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief How the bytes a worker's collective sends travel to other workers: one object per
 * worker, chosen by TypeId (TrainingHelper::SetTransport). TcpPartitionTransport moves them as
 * packets over TCP connections; IdealPartitionTransport delivers them after an analytic delay.
 *
 * Bytes handed to Send() for one peer arrive at that peer in order, reported through the
 * receive callback with the sender's rank; a path that breaks is reported once through the
 * failure callback, unless Close() was called first.
 *
 * A scenario names its transport ("tcp", "ideal"): each subclass registers its name in its
 * own file with one line,
 * \code
 *   [[maybe_unused]] static const bool g_registered
 *       = PartitionTransport::Register("tcp", &TcpPartitionTransport::GetTypeId);
 * \endcode
 * and Lookup turns a name into the TypeId to give TrainingHelper::SetTransport.
 */
class PartitionTransport : public Object, public RegisteredTypes<PartitionTransport>
{
  public:
    static TypeId GetTypeId();

    /**
     * The peer that is no worker: the switch that aggregates the job's gradients (the
     * in-network-aggregation collective). Bytes sent to it are a gradient to reduce there; the
     * bytes it reports are the sum's.
     */
    static constexpr uint32_t NETWORK_PEER = 0xffffffff;

    /** A worker this one exchanges bytes with, or NETWORK_PEER. */
    struct Peer
    {
        uint32_t rank;
        Ipv4Address address;               //!< its server's address
        Ptr<PartitionTransport> transport; //!< its transport (same type as this one)
        Ptr<const AggregationLease> lease; //!< NETWORK_PEER's: the switch's slots for the job
    };

    /** (from rank, bytes) */
    typedef Callback<void, uint32_t, uint64_t> ReceiveCallback;
    /** (what broke, one line) */
    typedef Callback<void, const std::string&> FailureCallback;

    void SetReceiveCallback(ReceiveCallback receive);
    void SetFailureCallback(FailureCallback failure);

    /**
     * Opens the paths of worker `rank` on `node`: to every peer of `sendTo` and from every peer
     * of `receiveFrom`. Called when the worker starts; failures go to the failure callback.
     */
    virtual void Open(Ptr<Node> node,
                      uint32_t rank,
                      const std::vector<Peer>& sendTo,
                      const std::vector<Peer>& receiveFrom)
        = 0;
    /** Hands `bytes` to the path towards `peer` (a rank of sendTo). */
    virtual void Send(uint32_t peer, uint64_t bytes) = 0;
    /**
     * Hands the same `bytes` to every rank of `peers` (ranks of sendTo) at once; a transport
     * that can multicast sends them once. The default: Send() to each. Group sends arrive in
     * the order they were handed over; a peer that gets both unicast and group bytes from one
     * sender may see the two interleaved (a collective gives a peer one or the other).
     */
    virtual void SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes);
    /**
     * Turns multicast group sends on or off; returns whether this transport can multicast
     * (the default: it cannot, and SendToGroup sends a copy to each).
     */
    virtual bool SetMulticast(bool on);
    /**
     * The IP ToS of what Send() hands over from now on (one fusion buffer's collective), or -1
     * for the transport's own. Transports without bands ignore it.
     */
    virtual void SetBufferTos(int tos);
    /**
     * Moves the bytes this transport still holds or retransmits to the IP ToS `tos` (a policy
     * raised the collective in flight), and sends at `tos` from now on, as SetBufferTos.
     * Packets already in a queue disc keep their band.
     */
    virtual void SetInFlightTos(int tos);
    /**
     * What Send() hands over from now on is due at `deadlineNs` (simulated time): the deadline
     * of the fusion buffer whose collective runs. Transports that tag no packets ignore it.
     */
    virtual void SetBufferDeadline(int64_t deadlineNs);
    /** Closes every path; no failure is reported from then on. */
    virtual void Close() = 0;
    /** What the paths hold or wait for, on one line (empty when nothing). */
    virtual std::string Describe() const = 0;

  protected:
    void DoDispose() override;
    /** Reports bytes that arrived from worker `from`. */
    void NotifyReceived(uint32_t from, uint64_t bytes);
    /** Reports a broken path, once; not after Close(). */
    void NotifyFailure(const std::string& what);
    /** Silences NotifyFailure (Close() calls it). */
    void SilenceFailures();

  private:
    ReceiveCallback m_receive;
    FailureCallback m_failure;
    bool m_failureReported{false};
};

/** The registry of PartitionTransport's choices, defined in its own file. */
template<>
NamedRegistry<TypeId (*)()>& RegisteredTypes<PartitionTransport>::Registry();

} // namespace ns3

#endif /* PARTITION_TRANSPORT_H */
