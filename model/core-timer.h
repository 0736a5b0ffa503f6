/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CORE_TIMER_H
#define CORE_TIMER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The one pending wake-up of a C state machine that an ns-3 object drives.
 *
 * The C core takes the time as an input and names, after each call, the next nanosecond it
 * wants to be woken at (INT64_MAX: never). Every driver keeps one such call pending: a new
 * time replaces it.
 */
class CoreTimer
{
  public:
    /** The machines' "never": no wake-up wanted. */
    static constexpr int64_t NEVER = std::numeric_limits<int64_t>::max();

    /**
     * Replaces the pending call with (obj->*call)(args...) at `ns`, in the simulation's
     * nanoseconds (none for NEVER; a time already past calls at once).
     */
    template<typename MEM, typename OBJ, typename... Ts>
    void
    At(int64_t ns, MEM call, OBJ obj, Ts... args)
    {
        m_event.Cancel();
        if (ns != NEVER)
        {
            const int64_t now = Simulator::Now().GetNanoSeconds();
            m_event = Simulator::Schedule(
                NanoSeconds(std::max<int64_t>(ns - now, 0)), call, obj, args...);
        }
    }

    /** Drops the pending call, if any. */
    void
    Cancel()
    {
        m_event.Cancel();
    }

  private:
    EventId m_event;
};

} // namespace ns3

#endif /* CORE_TIMER_H */
