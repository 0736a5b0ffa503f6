/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCHEDULE_REPLAY_PATTERN_H
#define SCHEDULE_REPLAY_PATTERN_H

#include "ns3/background-pattern.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Replays a flow schedule CSV (flow_id,from,to,size_bytes,start_ns), each flow as
 * given, rows sorted by start time. Registered as "schedule".
 */
class ScheduleReplayPattern : public BackgroundPattern
{
  public:
    static TypeId GetTypeId();
    ScheduleReplayPattern();

    /** The schedule's flows, all of them (it decides their starts itself). */
    std::vector<ddnn_flow> MakeFlows(uint32_t servers, Time start, Time stop) const override;
    /** The bytes of the flows starting in [start, stop), per server and second. */
    double GetOfferedBytesPerSecond(uint32_t servers, Time start, Time stop) const override;

  private:
    std::string m_scheduleFile;
};

} // namespace ns3

#endif /* SCHEDULE_REPLAY_PATTERN_H */
