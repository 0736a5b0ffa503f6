/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "progress-meter.h"

#include "ns3/ddnn-exception.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>
#include <unistd.h>

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

ProgressMeter::ProgressMeter(Time end, const std::string& mode)
    : m_end(end)
    , m_start(std::chrono::steady_clock::now())
    , m_lastPrint(m_start)
{
    if (Enabled(mode) && end.IsStrictlyPositive())
    {
        m_event = Simulator::Schedule(CheckEvery, &ProgressMeter::Check, this);
    }
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
        double left = speed > 0 ? (m_end.GetSeconds() - simulated) / speed : 0;
        std::fprintf(stderr,
                     "\rsimulated %.3f of %.3f s (%.1f %%), %.4f simulated s per wall s, about "
                     "%.0f min %02.0f s left   ",
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
