/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRESS_METER_H
#define PROGRESS_METER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Shows a long run's progress on stderr about once per wall-clock
 * second: simulated time, speed (simulated per wall second) and an estimate of
 * the wall time left.
 *
 * The estimate comes from a cost model of the run's phases: each phase costs
 * some wall time per simulated second relative to the others (e.g. the expected
 * packets per second: before the first gradient leaves, only the background
 * flows send). The wall time spent so far, divided by the cost simulated so far,
 * prices the cost still to simulate, so a cheap start does not make the estimate
 * optimistic. Without phases every simulated second costs the same. `runsAfter`
 * more runs of the same cost (a comparison's second run) are included in the time
 * left.
 *
 * Mode "auto" shows it only when stderr is a terminal; "always" and "never"
 * force it. Checking the wall clock costs one event per CheckEvery of
 * simulated time.
 */
class ProgressMeter
{
  public:
    /** From `start` on (until the next phase), `cost` per simulated second (>= 0). */
    struct Phase
    {
        Time start;
        double cost;
    };

    /**
     * Starts watching a run that ends at `end` (simulated); mode: auto, always or never.
     * `label` starts each line ("training same, run 1 of 2: ").
     */
    ProgressMeter(Time end,
                  const std::string& mode,
                  std::vector<Phase> phases = {},
                  const std::string& label = "",
                  uint32_t runsAfter = 0);
    ~ProgressMeter();

    static bool Enabled(const std::string& mode);

    /**
     * The cost model's wall seconds left at simulated time `now` after `wall` seconds:
     * wall x (cost(end) - cost(now) + runsAfter x cost(end)) / cost(now), cost(t) the
     * phases' cost integrated from 0 to t; 0 before any cost is simulated.
     */
    static double SecondsLeft(
        const std::vector<Phase>& phases, Time now, Time end, double wall, uint32_t runsAfter);

  private:
    void Check();

    Time m_end;
    std::vector<Phase> m_phases;
    std::string m_label;
    uint32_t m_runsAfter;
    EventId m_event;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastPrint;
    bool m_printed{false};
};

} // namespace ns3

#endif /* PROGRESS_METER_H */
