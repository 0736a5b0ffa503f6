/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TCP_PARTITION_TRANSPORT_H
#define TCP_PARTITION_TRANSPORT_H

#include "aggregation-client.h"
#include "multicast-receiver.h"
#include "multicast-sender.h"
#include "partition-transport.h"
#include "slack-marker.h"
#include "tcp-stream-sender.h"

#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <map>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Partitions as packets: one TCP connection to every peer the worker sends to (written
 * by a TcpStreamSender), and one accepted from every peer it receives from, on Port; one more
 * per other ToS a BufferPriorityPolicy puts a buffer at, opened when first used. Every
 * worker of a job listens on the same Port. Both ends use Tos, so PfifoFast bands apply at the
 * host and, through the IP header, at every switch; the ACKs leave with it too. Its sockets
 * use the job's own CongestionControl when one is given.
 *
 * With SlackTags, every TCP segment carries the running buffer's deadline (SetBufferDeadline),
 * its ACKs the deadline of the data they acknowledge, for a LeastSlackQueueDisc.
 *
 * With SetMulticast(true), group sends (SendToGroup) travel once, over ddnn's reliable multicast
 * transport (MulticastSender, MulticastReceiver) on UDP port Port to the job's group
 * 239.192.(Port / 256).(Port % 256), along MulticastRoutes built at the first group send; a
 * group is ranks 0..n-1 (the workers), each receiving as its rank.
 *
 * To NETWORK_PEER (in-network aggregation), a gradient travels over UDP to the switch's
 * AggregatingSwitch, chunk by chunk into its slots (AggregationClient), the results coming
 * back on UDP port Port.
 */
class TcpPartitionTransport : public PartitionTransport
{
  public:
    static TypeId GetTypeId();
    TcpPartitionTransport();

    void Open(Ptr<Node> node,
              uint32_t rank,
              const std::vector<Peer>& sendTo,
              const std::vector<Peer>& receiveFrom) override;
    void Send(uint32_t peer, uint64_t bytes) override;
    void SendToGroup(const std::vector<uint32_t>& peers, uint64_t bytes) override;
    bool SetMulticast(bool on) override;
    void SetBufferTos(int tos) override;
    /** Retags every connection's socket: its unsent and retransmitted segments. */
    void SetInFlightTos(int tos) override;
    void SetBufferDeadline(int64_t deadlineNs) override;
    void Close() override;
    std::string Describe() const override;
    /** The client of in-network aggregation (with NETWORK_PEER among the peers), or null. */
    Ptr<AggregationClient> GetAggregationClient() const;

  protected:
    void DoDispose() override;

  private:
    void SetCongestionControl(std::string typeName);
    std::string GetCongestionControl() const;
    /** Sets MinRto on `socket` when it is not 0. */
    void UseMinRto(Ptr<Socket> socket) const;
    /** Opens the connection to `peer` at `tos`. */
    Ptr<TcpStreamSender> Connect(uint32_t peer, uint8_t tos);
    void ConnectFailed(Ptr<TcpStreamSender> sender);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void Accepted(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandleClose(Ptr<Socket> socket);
    /** The rank behind a socket, or the number of ranks when it is none of the peers. */
    std::string PeerName(Ptr<Socket> socket) const;
    /** The job's multicast group (from Port). */
    Ipv4Address Group() const;
    /** Sets up the group's routes and sender for `peers`; false (failure notified) if not. */
    bool OpenGroup(const std::vector<uint32_t>& peers);
    void GroupReceived(Ipv4Address from, uint32_t message, uint64_t bytes);
    /** Starts the AggregationClient towards `peer` (NETWORK_PEER). */
    void OpenAggregation(const Peer& peer);
    void AggregateReceived(uint64_t bytes);

    uint16_t m_port;
    uint8_t m_tos;
    int m_ackTos;
    uint32_t m_chunkBytes;
    std::string m_congestionControl;

    Ptr<Node> m_node;
    uint32_t m_rank{0}; //!< the worker's, for its log lines
    Ptr<Socket> m_listenSocket;
    std::map<uint32_t, Ipv4Address> m_sendTo; //!< peers to send to: rank -> address
    int m_bufferTos{-1};                      //!< SetBufferTos()
    std::map<std::pair<uint32_t, uint8_t>, Ptr<TcpStreamSender>> m_senders; //!< (rank, ToS)
    std::map<Ipv4Address, uint32_t> m_expected; //!< peers to accept: address -> rank
    std::map<Ptr<Socket>, uint32_t> m_accepted; //!< accepted sockets -> rank
    bool m_closed{false};
    bool m_slackTags{false};
    Time m_minRto;                      //!< 0: the stack's
    Ptr<SlackMarker> m_marker;          //!< with SlackTags: tags every TCP segment of this worker
    bool m_multicast{false};            //!< SetMulticast()
    Ptr<MulticastSender> m_groupSender; //!< at the first group send
    Ptr<MulticastReceiver> m_groupReceiver; //!< with Multicast, on a rank that receives
    Ptr<AggregationClient> m_aggregation;   //!< with NETWORK_PEER among the peers
};

} // namespace ns3

#endif /* TCP_PARTITION_TRANSPORT_H */
