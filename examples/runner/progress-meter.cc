/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "progress-meter.h"

#include "ns3/one-line-error.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <utility>

namespace ns3
{

namespace
{
const Time CheckEvery = MicroSeconds(100);
} // namespace

bool
ProgressMeter::Enabled(const std::string& mode)
{
    if (mode == "always")
    {
        return true;
    }
    if (mode == "never")
    {
        return false;
    }
    if (mode != "auto")
    {
        throw DdnnError("--progress: expected auto, always or never, got '" + mode + "'");
    }
    return isatty(STDERR_FILENO) == 1;
}

ProgressMeter::ProgressMeter(Time end,
                             const std::string& mode,
                             std::vector<Phase> phases,
                             const std::string& label,
                             uint32_t runsAfter)
    : m_end(end)
    , m_phases(std::move(phases))
    , m_label(label)
    , m_runsAfter(runsAfter)
    , m_start(std::chrono::steady_clock::now())
    , m_lastPrint(m_start)
{
    if (m_phases.empty())
    {
        m_phases.push_back({Seconds(0), 1.0});
    }
    if (Enabled(mode) && end.IsStrictlyPositive())
    {
        m_event = Simulator::Schedule(CheckEvery, &ProgressMeter::Check, this);
    }
}

namespace
{

/** The phases' cost integrated from 0 to t (phases in order of their starts). */
double
CostUntil(const std::vector<ProgressMeter::Phase>& phases, Time t)
{
    double cost = 0;
    for (size_t i = 0; i < phases.size(); ++i)
    {
        const Time from = phases[i].start;
        const Time to = i + 1 < phases.size() ? std::min(phases[i + 1].start, t) : t;
        if (to > from)
        {
            cost += (to - from).GetSeconds() * phases[i].cost;
        }
    }
    return cost;
}

} // namespace

double
ProgressMeter::SecondsLeft(
    const std::vector<Phase>& phases, Time now, Time end, double wall, uint32_t runsAfter)
{
    const double done = CostUntil(phases, now);
    const double total = CostUntil(phases, end);
    if (!(done > 0))
    {
        return 0;
    }
    return wall * (total - done + runsAfter * total) / done;
}

ProgressMeter::~ProgressMeter()
{
    m_event.Cancel();
    if (m_printed)
    {
        std::fprintf(stderr, "\n");
    }
}

void
ProgressMeter::Check()
{
    auto now = std::chrono::steady_clock::now();
    if (now - m_lastPrint >= std::chrono::seconds(1))
    {
        m_lastPrint = now;
        double wall = std::chrono::duration<double>(now - m_start).count();
        double simulated = Simulator::Now().GetSeconds();
        double speed = simulated / wall;
        double left = SecondsLeft(m_phases, Simulator::Now(), m_end, wall, m_runsAfter);
        std::fprintf(stderr,
                     "\r%ssimulated %.3f of %.3f s (%.1f %%), %.4f simulated s per wall s, about "
                     "%.0f min %02.0f s left   ",
                     m_label.c_str(),
                     simulated,
                     m_end.GetSeconds(),
                     100 * simulated / m_end.GetSeconds(),
                     speed,
                     std::floor(left / 60),
                     std::fmod(left, 60));
        std::fflush(stderr);
        m_printed = true;
    }
    if (Simulator::Now() + CheckEvery < m_end)
    {
        m_event = Simulator::Schedule(CheckEvery, &ProgressMeter::Check, this);
    }
}

} // namespace ns3
