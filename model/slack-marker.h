/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SLACK_MARKER_H
#define SLACK_MARKER_H

#include "slack-tag.h"

#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"

#include <unordered_map>

namespace ns3
{

class Packet;
class TcpHeader;
class TcpSocketBase;

/**
 * \ingroup ddnn
 * \brief Puts a SlackTag on every segment the TCP sockets it is attached to send, at the
 * moment TCP sends it (first transmissions and retransmissions alike): segments with data carry
 * the deadline set here; segments without (ACKs, SYN, FIN) carry the tag of the last data the
 * socket received, so that an ACK is due when the data it acknowledges is, or else the deadline
 * set here. A socket a listening socket accepts inherits its marker.
 *
 * A segment sent before any deadline is set, with nothing received to echo (a handshake), is
 * due when it is sent.
 */
class SlackMarker : public SimpleRefCount<SlackMarker>
{
  public:
    explicit SlackMarker(TenantKind::Tenant tenant);

    /** What the sockets send from now on is due at `deadlineNs` (simulated time). */
    void SetDeadline(int64_t deadlineNs);
    /** Whether SetDeadline was called. */
    bool HasDeadline() const;
    int64_t GetDeadlineNs() const;

    /** Marks what `socket` sends; false (and nothing done) when it is no TCP socket. */
    bool Attach(Ptr<Socket> socket);

  private:
    void Sent(Ptr<const Packet> packet, const TcpHeader& header, Ptr<const TcpSocketBase> socket);
    void Received(Ptr<const Packet> packet,
                  const TcpHeader& header,
                  Ptr<const TcpSocketBase> socket);

    TenantKind::Tenant m_tenant;
    int64_t m_deadlineNs{0};
    bool m_hasDeadline{false};
    /** Per socket: the tag of the last data it received, until it sends its FIN. */
    std::unordered_map<const TcpSocketBase*, SlackTag> m_received;
};

} // namespace ns3

#endif /* SLACK_MARKER_H */
