/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The one place where ddnn adapts to the ns-3 release it is built with (3.35 to 3.48, and
 * 3.30.1, the thesis's own).
 * DDNN_NS3_VERSION_MINOR is the "YY" of ns-3.YY, defined by the build (CMakeLists.txt reads
 * the tree's VERSION file or the installed package's version; wscript the tree's VERSION).
 * Private to ddnn's sources: not installed, not included by any public header.
 */
#ifndef DDNN_NS3_COMPAT_H
#define DDNN_NS3_COMPAT_H

#include "ns3/bulk-send-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#ifndef DDNN_NS3_VERSION_MINOR
#error "DDNN_NS3_VERSION_MINOR is not defined: build ddnn with its CMakeLists.txt or wscript"
#endif

/** True when building against ns-3.<minor> or newer. */
#define DDNN_NS3_AT_LEAST(minor) (DDNN_NS3_VERSION_MINOR >= (minor))

/**
 * An enum attribute's accessor. ns-3.41 made the enum type an explicit template argument
 * (MakeEnumAccessor<T>); older releases deduce it and take no such argument.
 */
#if DDNN_NS3_AT_LEAST(41)
#define DDNN_ENUM_ACCESSOR(EnumType, member) ns3::MakeEnumAccessor<EnumType>(member)
#else
#define DDNN_ENUM_ACCESSOR(EnumType, member) ns3::MakeEnumAccessor(member)
#endif

/**
 * The checker of an enum attribute, to add names to after it is made: a template on the enum
 * type since ns-3.41 (EnumChecker<T>), one class before.
 */
#if DDNN_NS3_AT_LEAST(41)
template<typename EnumType>
using DdnnEnumChecker = ns3::EnumChecker<EnumType>;
#else
template<typename EnumType>
using DdnnEnumChecker = ns3::EnumChecker;
#endif

/* A routing protocol's callback parameters: by value up to ns-3.38, by const reference since. */
#if DDNN_NS3_AT_LEAST(39)
#define DDNN_ROUTING_CALLBACK(type) const type&
#else
#define DDNN_ROUTING_CALLBACK(type) type
#endif

/* The text a CommandLine::AddValue callback receives: by value up to ns-3.37, by const reference
 * since. */
#if DDNN_NS3_AT_LEAST(38)
#define DDNN_COMMAND_LINE_TEXT const std::string&
#else
#define DDNN_COMMAND_LINE_TEXT std::string
#endif

namespace ns3
{
namespace compat
{

/**
 * Gives a TCP socket the IP ToS @p tos (and so the PfifoFast band) for everything it sends,
 * SYNs and ACKs included, before it is bound to or connected with @p address. Up to ns-3.41,
 * Bind() and Connect() overwrite the socket's ToS with the address's own, so the address
 * carries it too; ns-3.42 removed the ToS from InetSocketAddress.
 */
inline void
SetTos(Ptr<Socket> socket, [[maybe_unused]] InetSocketAddress& address, uint8_t tos)
{
#if !DDNN_NS3_AT_LEAST(42)
    address.SetTos(tos);
#endif
    socket->SetIpTos(tos);
}

/**
 * Sends @p packet from a UDP socket to @p address with IP ToS @p tos (its PfifoFast band).
 * Up to ns-3.41 UdpSocket::SendTo takes the ToS from the address and ignores the socket's,
 * so the address carries it; from ns-3.42 on it takes the socket's.
 */
inline int
UdpSendToWithTos(Ptr<Socket> socket, Ptr<Packet> packet, InetSocketAddress address, uint8_t tos)
{
    SetTos(socket, address, tos);
    return socket->SendTo(packet, 0, address);
}

/**
 * A BulkSendHelper for TCP to @p peer whose sockets send with IP ToS @p tos: through the
 * address up to ns-3.41, through the application's "Tos" attribute from ns-3.42 on.
 */
inline BulkSendHelper
TcpBulkSendWithTos(InetSocketAddress peer, uint8_t tos)
{
#if DDNN_NS3_AT_LEAST(42)
    BulkSendHelper bulk("ns3::TcpSocketFactory", peer);
    bulk.SetAttribute("Tos", UintegerValue(tos));
#else
    peer.SetTos(tos);
    BulkSendHelper bulk("ns3::TcpSocketFactory", peer);
#endif
    return bulk;
}

} // namespace compat
} // namespace ns3

#endif // DDNN_NS3_COMPAT_H
