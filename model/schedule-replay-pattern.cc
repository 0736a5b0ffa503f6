/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "schedule-replay-pattern.h"

#include "ns3/ddnn-schedule.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleReplayPattern");

NS_OBJECT_ENSURE_REGISTERED(ScheduleReplayPattern);

[[maybe_unused]] static const bool g_registered
    = BackgroundPattern::Register("schedule", &ScheduleReplayPattern::GetTypeId);

TypeId
ScheduleReplayPattern::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::ScheduleReplayPattern")
              .SetParent<BackgroundPattern>()
              .SetGroupName("Ddnn")
              .AddConstructor<ScheduleReplayPattern>()
              .AddAttribute("ScheduleFile",
                            "Flow schedule CSV to replay (flow_id,from,to,size_bytes,start_ns).",
                            StringValue(""),
                            MakeStringAccessor(&ScheduleReplayPattern::m_scheduleFile),
                            MakeStringChecker());
    return tid;
}

ScheduleReplayPattern::ScheduleReplayPattern() = default;

std::vector<ddnn_flow>
ScheduleReplayPattern::MakeFlows(uint32_t servers, Time, Time) const
{
    NS_LOG_FUNCTION(this << servers);
    if (m_scheduleFile.empty())
    {
        throw DdnnError("ns3::ScheduleReplayPattern::ScheduleFile: expected a flow schedule "
                        "CSV, got none");
    }
    ddnn_schedule schedule{nullptr, 0};
    ddnn_diag diag{};
    CheckReadOutcome(ddnn_schedule_read_file(&schedule, m_scheduleFile.c_str(), servers, &diag),
                     diag,
                     m_scheduleFile,
                     "ns3::ScheduleReplayPattern::ScheduleFile");
    std::vector<ddnn_flow> flows(schedule.flows, schedule.flows + schedule.count);
    ddnn_schedule_free(&schedule);
    return flows;
}

double
ScheduleReplayPattern::GetOfferedBytesPerSecond(uint32_t servers, Time start, Time stop) const
{
    double bytes = 0;
    for (const ddnn_flow& flow : MakeFlows(servers, start, stop))
    {
        const auto at = static_cast<int64_t>(flow.start_ns);
        bytes += at >= start.GetNanoSeconds() && at < stop.GetNanoSeconds() ? flow.bytes : 0;
    }
    return stop > start ? bytes / servers / (stop - start).GetSeconds() : 0;
}

} // namespace ns3
