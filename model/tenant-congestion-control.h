/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TENANT_CONGESTION_CONTROL_H
#define TENANT_CONGESTION_CONTROL_H

#include "ns3/node.h"
#include "ns3/socket.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A tenant's own TCP congestion control: the TypeId name of a TcpCongestionOps
 * (e.g. "ns3::TcpDctcp"), or empty for the stack's (ns3::TcpL4Protocol::SocketType).
 *
 * CheckCongestionControl() says what is wrong with a name (empty when nothing), so tenants
 * reject it before the run; UseCongestionControl() puts it on a TCP socket before it connects
 * or listens (accepted sockets inherit it).
 */
std::string CheckCongestionControl(const std::string& typeName);
/** `typeName` when it is valid; else throws DdnnError "ATTRIBUTE: what is wrong". */
std::string ValidCongestionControl(const std::string& attribute, const std::string& typeName);
void UseCongestionControl(Ptr<Socket> socket, const std::string& typeName);

/**
 * Warns once per run on stderr when `who`'s congestion control on `node` (`typeName`, or the
 * node's TcpL4Protocol::SocketType when empty) turns ECN on while its sockets use a non-zero IP
 * ToS: ns-3's TCP then sends every packet Not-ECT (Socket::SetIpTos keeps a stream socket's
 * ECN bits at 00 and TcpSocketBase marks ECT only for a ToS of 0 or one with ECN bits set), so
 * ECN queues drop those packets at their threshold instead of marking them.
 */
void WarnIfEcnLost(Ptr<Node> node,
                   const std::string& typeName,
                   uint8_t tos,
                   const std::string& who);

} // namespace ns3

#endif /* TENANT_CONGESTION_CONTROL_H */
