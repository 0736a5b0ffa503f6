/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TCP_SETUP_CHECK_H
#define TCP_SETUP_CHECK_H

#include "ns3/ptr.h"
#include "ns3/socket.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Warns once per run on stderr when a tenant's TCP socket carries ns-3's own defaults
 * (a 1 s minimum RTO, 536-byte segments), which nothing in a fabric of microseconds would
 * choose: the program did not call TransportSettings::Apply() before the simulation.
 */
void WarnIfNs3TcpDefaults(Ptr<Socket> socket);

} // namespace ns3

#endif /* TCP_SETUP_CHECK_H */
