/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRESS_METER_H
#define PROGRESS_METER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Shows a long run's progress on stderr about once per wall-clock
 * second: simulated time, speed (simulated per wall second) and an estimate of
 * the wall time left.
 *
 * Mode "auto" shows it only when stderr is a terminal; "always" and "never"
 * force it. Checking the wall clock costs one event per CheckEvery of
 * simulated time.
 */
class ProgressMeter
{
  public:
    /** Starts watching a run that ends at `end` (simulated); mode: auto, always or never. */
    ProgressMeter(Time end, const std::string& mode);
    ~ProgressMeter();

    static bool Enabled(const std::string& mode);

  private:
    void Check();

    Time m_end;
    EventId m_event;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastPrint;
    bool m_printed{false};
};

} // namespace ns3

#endif /* PROGRESS_METER_H */
