/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MULTICAST_SENDER_H
#define MULTICAST_SENDER_H

#include "core-timer.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>

struct ddnn_mcast_sender;

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The sending end of ddnn's reliable multicast transport (ddnn-multicast.h) on a node:
 * messages of given sizes to an IPv4 multicast group over UDP, each packet once to the
 * group (the network's multicast routes replicate it, MulticastRoutes), lost packets
 * repaired on the receivers' NACKs, a message complete when every receiver said DONE.
 *
 * Messages leave one after another, each paced at Rate (0: the rate of the node's first
 * point-to-point device, its link); the next starts when the previous one is complete.
 * Data and repairs carry Tos; the receivers answer the source address and port of the data.
 */
class MulticastSender : public Object
{
  public:
    static TypeId GetTypeId();
    MulticastSender();

    /** (message number, bytes) of a message every receiver has. */
    typedef Callback<void, uint32_t, uint64_t> CompleteCallback;
    void SetCompleteCallback(CompleteCallback complete);

    /**
     * Sends from `node` to `group`:Port for `receivers` receivers (numbered 0..receivers-1 by
     * their MulticastReceiver's Index). The node needs a route to the group (MulticastRoutes).
     */
    void Setup(Ptr<Node> node, Ipv4Address group, uint32_t receivers);
    /** Queues a message of `bytes` (>= 1); returns its number (0, 1, ... in order). */
    uint32_t Send(uint64_t bytes);
    /** Sets the ToS of the packets sent from now on. */
    void SetTos(uint8_t tos);

    /** Totals over every message so far. */
    struct Stats
    {
        uint64_t originals{0}; //!< packets sent the first time
        uint64_t repairs{0};   //!< packets sent again for NACKs
        uint64_t probes{0};    //!< packets sent again for silent receivers
        uint64_t bytes{0};     //!< payload bytes sent, repairs and probes included
        uint64_t nacks{0};     //!< NACK ranges received
    };

    Stats GetStats() const;
    /** Messages queued and not yet complete. */
    uint32_t GetPending() const;

    /** The data rate of the first device of `node` that has one (its link); 0 if none has. */
    static DataRate LinkRate(Ptr<Node> node);

  protected:
    void DoDispose() override;

  private:
    /** Starts the message at the head of the queue. */
    void StartNext();
    /** The head message is complete: frees its C sender, reports it, starts the next. */
    void Finish();
    void HandleRead(Ptr<Socket> socket);
    void Wake();
    /** Aborts the simulation on a core error (a bug, not an input). */
    void Check(int rc, const char* what) const;
    static int SendData(void* ctx, uint32_t seq, uint64_t offset, uint32_t length, int repair);
    static int Completed(void* ctx);

    uint16_t m_port;
    uint8_t m_tos;
    DataRate m_rate;
    uint32_t m_packetBytes;
    Ptr<Node> m_node;
    Ptr<Socket> m_socket;
    Ipv4Address m_group;
    uint32_t m_receivers{0};
    std::deque<uint64_t> m_queue; //!< bytes of the messages not complete, the head active
    uint32_t m_nextMessage{0};    //!< number of the next message queued
    uint32_t m_active{0};         //!< number of the head message
    ddnn_mcast_sender* m_sender{nullptr};
    Stats m_done; //!< totals of the completed messages
    CoreTimer m_wake;
    EventId m_start;  //!< StartNext, as an event of its own
    EventId m_finish; //!< Finish, out of the C sender's call
    CompleteCallback m_complete;
};

} // namespace ns3

#endif /* MULTICAST_SENDER_H */
