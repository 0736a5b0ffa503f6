/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PORT_PLAN_H
#define PORT_PLAN_H

#include "scenario.h"

#include "ns3/type-id.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Refuses, before anything is built, two owners of one listening port of a protocol:
 * the jobs' TCP transports and network syncers (their Port + the job's index), the background
 * sinks' TCP port and its flows' source ports (10000 to 49151), the multicast and
 * in-network-aggregation UDP ports. The one line names both owners, each port as the user gave
 * it (the attribute and its value, plus a job's index where it is derived). `background`: the
 * run has the background tenant (ddnn-datacenter).
 */
void CheckPorts(const Scenario& scenario, bool background);

/**
 * \ingroup ddnn
 * \brief A port attribute as configured (its default, or an ns-3 default the user gave); a
 * runner's job k takes it + k.
 */
uint32_t ConfiguredPort(TypeId type, const std::string& attribute);

} // namespace ns3

#endif /* PORT_PLAN_H */
