/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_PLACEMENT_H
#define JOB_PLACEMENT_H

#include "ns3/server-topology.h"

#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The servers of `topology` a job of `workers` runs on, in rank order:
 * - "packed": fill a rack before the next (racks and servers in their order);
 * - "spread": round-robin over the racks (rank r in rack r mod racks, as far as they hold);
 * - an explicit list of server indices, "0,5,9" (then `workers` must be its length).
 * With `taken` (the servers of jobs placed before), packed and spread skip those servers, and
 * the chosen ones are added to it; an explicit list may share them (each job has its own ports).
 * Throws DdnnError naming the placement when a server does not exist, appears twice, or the
 * topology holds fewer than `workers` free servers.
 */
Ptr<ServerList> PlaceJob(Ptr<ServerTopology> topology,
                         const std::string& placement,
                         uint32_t workers,
                         std::set<uint32_t>* taken = nullptr);

} // namespace ns3

#endif /* JOB_PLACEMENT_H */
