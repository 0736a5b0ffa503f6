/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_SCALED_REPLICA_H
#define DDNN_RUNNER_SCALED_REPLICA_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <string>

namespace ns3
{

class Scenario;

/*
 * A scaled replica of a scenario (--scale=p, doc/user.rst "Scaled replicas"), after SHRiNK
 * (Pan, Prabhakar, Psounis, Wischik, 2003): link rates, queue limits, the training job's
 * bytes and the background's flow rate times p; packet sizes, flow sizes, propagation delays,
 * compute times and transport timers as they are. Each link then carries p times the packets
 * at the same utilization, and an all-reduce of p times the bytes takes as long as at full
 * scale, so R_cp_to_nw holds. The rules below are applied where each value is used (the
 * scenario keeps the values the user wrote, and --scale beside them).
 */

/** `rate` in the replica: times the scale, to the nearest bit per second (at least 1). */
DataRate ScaledRate(const Scenario& scenario, const DataRate& rate);

/** A queue limit in packets in the replica: times the scale, rounded up; 0 (none) stays 0. */
uint32_t ScaledPackets(const Scenario& scenario, uint32_t packets);

/** The web-search pattern's flows per second and server in the replica. */
double ScaledFlowRate(const Scenario& scenario);

/**
 * Refuses a scale below 1 on what a replica cannot scale (a background of replayed flows, whose
 * rate is the schedule's), naming the option and what was expected.
 */
void CheckScalable(const Scenario& scenario);

/**
 * What a scaled run says of itself, one line: the factor and what it scaled; and, if the
 * scenario lies outside what the validation covered (doc), where. "" at full scale.
 */
std::string ScaleNote(const Scenario& scenario);

} // namespace ns3

#endif /* DDNN_RUNNER_SCALED_REPLICA_H */
