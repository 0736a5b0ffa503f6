/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TCP_STREAM_SENDER_H
#define TCP_STREAM_SENDER_H

#include "tenant-kind.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-state.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The one TCP send path of every tenant: writes a count of bytes into one TCP
 * connection, from the socket's send-space callback, in packets of at most ChunkBytes, as
 * BulkSendApplication does, so the socket's send buffer holds only what TCP can take.
 *
 * The owner creates and binds the socket (and sets its ToS), then calls Connect().
 */
class TcpStreamSender : public SimpleRefCount<TcpStreamSender>
{
  public:
    /** `tenant`: whose bytes it sends, as its timeouts are told. */
    TcpStreamSender(Ptr<Socket> socket,
                    uint32_t chunkBytes,
                    TenantKind::Tenant tenant = TenantKind::NONE);
    ~TcpStreamSender();

    /** What the owner hears: (this sender). */
    typedef Callback<void, Ptr<TcpStreamSender>> Notification;

    /** Connects to `peer`; `failed` is called if the connection cannot be made. */
    void Connect(const Address& peer, Notification failed);
    /** Queues `bytes` more (sent once connected). */
    void Add(uint64_t bytes);
    /** Called each time every byte queued so far is in the socket (may be null). */
    void SetDrainedCallback(Notification drained);
    /** Bytes queued but not yet in the socket. */
    uint64_t GetPending() const;
    bool IsConnected() const;
    Ptr<Socket> GetSocket() const;
    /** Stops writing and closes the socket (TCP still sends what it holds, then its FIN). */
    void Close();

    /** What hears a sender's retransmission timeout: (its socket, its tenant). */
    typedef Callback<void, Ptr<Socket>, TenantKind::Tenant> TimeoutObserver;
    /**
     * Sets what hears every sender's retransmission timeouts (its socket entering TCP's loss
     * state), e.g. a QueueMeter: one at a time, for the simulation that runs; a null callback
     * for none.
     */
    static void SetTimeoutObserver(TimeoutObserver observer);

  private:
    /** The socket's TCP state changed: a timeout (the loss state) is told to the observer. */
    static void CongStateChanged(Socket* socket,
                                 TenantKind::Tenant tenant,
                                 TcpSocketState::TcpCongState_t from,
                                 TcpSocketState::TcpCongState_t to);
    static TimeoutObserver s_timeoutObserver;

    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void Pump();

    Ptr<Socket> m_socket;
    uint32_t m_chunkBytes;
    TenantKind::Tenant m_tenant;
    uint64_t m_pending{0};
    bool m_connected{false};
    Notification m_failed;
    Notification m_drained;
};

} // namespace ns3

#endif /* TCP_STREAM_SENDER_H */
