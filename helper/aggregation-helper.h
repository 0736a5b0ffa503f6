/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_HELPER_H
#define AGGREGATION_HELPER_H

#include "ns3/aggregating-switch.h"
#include "ns3/object-factory.h"
#include "ns3/training-job.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Puts a training job whose Collective is in-network-aggregation on the switch its
 * workers share: installs an AggregatingSwitch there (once per switch; later jobs share it
 * and its memory) and asks it for the job's slots (the job's AggregationSlots of
 * AggregationSlotBytes). A job the switch has no room for runs its FallbackCollective and says
 * why (TrainingJob::GetFallback).
 *
 * The design aggregates at one switch: every worker of the job must hang from the same switch
 * (one rack); a job spread over racks is refused. Call Join after TrainingHelper::Install and
 * before the simulation runs.
 *
 * \code
 *   AggregationHelper aggregation;
 *   aggregation.SetSwitchAttribute("MemoryBytes", UintegerValue(1 << 20));
 *   aggregation.Join(training.GetJob());
 * \endcode
 */
class AggregationHelper
{
  public:
    AggregationHelper();

    /** An attribute of the AggregatingSwitch applications it installs. */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /** The switch every worker of `job` hangs from (the far end of each worker's first
     * link); a DdnnError names two workers under different nodes. */
    static Ptr<Node> SharedSwitch(Ptr<TrainingJob> job);

    /** The AggregatingSwitch of `node`: the one installed there, or a new one. */
    Ptr<AggregatingSwitch> Install(Ptr<Node> node) const;

    /**
     * Leases `job`'s slots at its workers' switch; when the switch has no room, the job falls
     * back (TrainingJob::FallBack) and this returns false. A DdnnError for a job that does not
     * aggregate in the network, workers under different switches, or a slot that does not fit
     * the links' MTU or the switch's memory at all.
     */
    bool Join(Ptr<TrainingJob> job) const;

  private:
    ObjectFactory m_switch;
};

} // namespace ns3

#endif /* AGGREGATION_HELPER_H */
