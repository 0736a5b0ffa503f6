/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MULTICAST_RECEIVER_H
#define MULTICAST_RECEIVER_H

#include "core-timer.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <utility>

struct ddnn_mcast_receiver;

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The receiving end of ddnn's reliable multicast transport (ddnn-multicast.h) on a
 * node: the data of every MulticastSender whose group reaches it on Port, one C receiver per
 * message, NACKs and DONEs sent back to the sender at Tos. Index is its number among the
 * group's receivers (the senders count DONEs by it).
 */
class MulticastReceiver : public Object
{
  public:
    static TypeId GetTypeId();
    MulticastReceiver();

    /** (sender's address, message number, bytes) of a message wholly received. */
    typedef Callback<void, Ipv4Address, uint32_t, uint64_t> ReceiveCallback;
    void SetReceiveCallback(ReceiveCallback receive);

    /** Listens on `node`, as receiver `index` of the groups that reach it. */
    void Setup(Ptr<Node> node, uint16_t index);

    /** Totals over every message so far. */
    struct Stats
    {
        uint64_t packets{0};    //!< distinct packets received
        uint64_t bytes{0};      //!< their payload bytes
        uint64_t duplicates{0}; //!< packets received again
        uint64_t nacks{0};      //!< NACK ranges sent
    };

    Stats GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /** One message being received (or received, kept to answer a probe with DONE). */
    struct Message
    {
        ddnn_mcast_receiver* receiver{nullptr};
        InetSocketAddress sender{Ipv4Address(), 0};
        uint32_t number{0};
        CoreTimer wake;
    };
    using Key = std::pair<uint32_t, uint32_t>; //!< sender's address, message number

    void HandleRead(Ptr<Socket> socket);
    void Wake(Key key);
    /** Sends a control message of `type` about `m` to its sender. */
    void SendControl(const Message& m, uint8_t type, uint32_t a, uint32_t b);
    static int SendNack(void* ctx, uint32_t first, uint32_t count);
    static int SendDone(void* ctx);
    /** Forgets messages of `sender` older than the last few (their DONE is long known). */
    void Forget(uint32_t sender, uint32_t newest);

    uint16_t m_port;
    uint8_t m_tos;
    uint16_t m_index{0};
    DataRate m_linkRate; //!< the NACK timers count in packet times of it
    Ptr<Socket> m_socket;
    std::map<Key, Message> m_messages;
    std::map<uint32_t, uint32_t> m_newest; //!< per sender: its newest message number seen
    Message* m_current{nullptr};           //!< the message a C callback is about
    Stats m_forgotten;                     //!< totals of the messages forgotten
    ReceiveCallback m_receive;
};

} // namespace ns3

#endif /* MULTICAST_RECEIVER_H */
