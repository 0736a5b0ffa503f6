/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-helper.h"

#include "ns3/data-path.h"
#include "ns3/ddnn-cdf.h"
#include "ns3/ddnn-schedule.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundHelper");

NS_OBJECT_ENSURE_REGISTERED(BackgroundHelper);

TypeId
BackgroundHelper::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::BackgroundHelper")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<BackgroundHelper>()
              .AddAttribute("FlowRate",
                            "Flows per second started by each server (the cluster starts servers "
                            "times as many).",
                            DoubleValue(23),
                            MakeDoubleAccessor(&BackgroundHelper::m_flowRate),
                            MakeDoubleChecker<double>())
              .AddAttribute("CdfFile",
                            "Flow-size CDF (bytes,cumulative_fraction).",
                            StringValue(DdnnDataPath("web-search-cdf.csv")),
                            MakeStringAccessor(&BackgroundHelper::m_cdfFile),
                            MakeStringChecker())
              .AddAttribute("ScheduleFile",
                            "Flow schedule CSV to replay instead of generating flows; empty: "
                            "generate.",
                            StringValue(""),
                            MakeStringAccessor(&BackgroundHelper::m_scheduleFile),
                            MakeStringChecker())
              .AddAttribute("Start",
                            "First possible flow arrival (generator).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&BackgroundHelper::m_start),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("Stop",
                            "No generated flow starts at or after this time.",
                            TimeValue(Seconds(12)),
                            MakeTimeAccessor(&BackgroundHelper::m_stop),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("MeasureFrom",
                            "Start of the measurement window: earlier flows are not counted.",
                            TimeValue(Seconds(2)),
                            MakeTimeAccessor(&BackgroundHelper::m_measureFrom),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("MeasureUntil",
                            "End of the measurement window: flows starting at or after it are "
                            "not counted.",
                            TimeValue(Seconds(10)),
                            MakeTimeAccessor(&BackgroundHelper::m_measureUntil),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("Tos",
                            "IP ToS of the background connections.",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&BackgroundHelper::m_tos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("Stream",
                            "Random stream index of the generator.",
                            IntegerValue(1000),
                            MakeIntegerAccessor(&BackgroundHelper::m_stream),
                            MakeIntegerChecker<int64_t>(0));
    return tid;
}

BackgroundHelper::BackgroundHelper() = default;

namespace
{

struct CdfDeleter
{
    void
    operator()(ddnn_cdf* cdf) const
    {
        ddnn_cdf_free(cdf);
    }
};

std::unique_ptr<ddnn_cdf, CdfDeleter>
ReadCdf(const std::string& path)
{
    ddnn_cdf* cdf = nullptr;
    ddnn_diag diag{};
    if (ddnn_cdf_read_file(&cdf, path.c_str(), &diag) != DDNN_OK)
    {
        char line[512];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    return std::unique_ptr<ddnn_cdf, CdfDeleter>(cdf);
}

double
NextUniform(void* ctx)
{
    return static_cast<UniformRandomVariable*>(ctx)->GetValue(0.0, 1.0);
}

} // namespace

double
BackgroundHelper::GetMeanFlowBytes() const
{
    return ddnn_cdf_mean(ReadCdf(m_cdfFile).get());
}

std::vector<ddnn_flow>
BackgroundHelper::MakeFlows(uint32_t servers) const
{
    NS_LOG_FUNCTION(this << servers);
    std::vector<ddnn_flow> flows;
    if (!m_scheduleFile.empty())
    {
        ddnn_schedule schedule{nullptr, 0};
        ddnn_diag diag{};
        if (ddnn_schedule_read_file(&schedule, m_scheduleFile.c_str(), servers, &diag) != DDNN_OK)
        {
            char line[512];
            ddnn_diag_format(&diag, m_scheduleFile.c_str(), line, sizeof line);
            throw DdnnError(line);
        }
        flows.assign(schedule.flows, schedule.flows + schedule.count);
        ddnn_schedule_free(&schedule);
        return flows;
    }
    if (!(m_flowRate > 0) || !std::isfinite(m_flowRate))
    {
        throw DdnnError("ns3::BackgroundHelper::FlowRate: expected a positive number of flows "
                        "per second per server, got "
                        + std::to_string(m_flowRate));
    }
    if (m_stop < m_start)
    {
        throw DdnnError("ns3::BackgroundHelper::Stop: earlier than Start");
    }
    auto cdf = ReadCdf(m_cdfFile);
    Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
    uniform->SetStream(m_stream);
    ddnn_flowgen_config cfg{servers,
                            m_flowRate,
                            static_cast<uint64_t>(m_start.GetNanoSeconds()),
                            static_cast<uint64_t>(m_stop.GetNanoSeconds())};
    ddnn_flowgen* gen = nullptr;
    int rc = ddnn_flowgen_new(&gen, &cfg, cdf.get(), &NextUniform, PeekPointer(uniform));
    if (rc != DDNN_OK)
    {
        throw DdnnError(std::string("ns3::BackgroundHelper: ") + ddnn_strerror(rc));
    }
    ddnn_flow flow;
    while (ddnn_flowgen_next(gen, &flow) == 1)
    {
        flows.push_back(flow);
    }
    ddnn_flowgen_free(gen);
    return flows;
}

Ptr<BackgroundTenant>
BackgroundHelper::Install(NodeContainer servers, const std::vector<ddnn_flow>& flows) const
{
    return Install(CreateObject<ServerList>(servers), flows);
}

Ptr<BackgroundTenant>
BackgroundHelper::Install(NodeContainer servers) const
{
    return Install(servers, MakeFlows(servers.GetN()));
}

Ptr<BackgroundTenant>
BackgroundHelper::Install(Ptr<ServerTopology> servers) const
{
    return Install(servers, MakeFlows(servers->GetServerCount()));
}

Ptr<BackgroundTenant>
BackgroundHelper::Install(Ptr<ServerTopology> servers, const std::vector<ddnn_flow>& flows) const
{
    NS_LOG_FUNCTION(this << servers->GetServerCount() << flows.size());
    if (m_measureUntil < m_measureFrom)
    {
        throw DdnnError("ns3::BackgroundHelper::MeasureUntil: earlier than MeasureFrom");
    }
    Ptr<BackgroundTenant> tenant = CreateObject<BackgroundTenant>();
    tenant->SetAttribute("Tos", UintegerValue(m_tos));
    tenant->Install(servers, flows);
    return tenant;
}

Time
BackgroundHelper::GetMeasureFrom() const
{
    return m_measureFrom;
}

Time
BackgroundHelper::GetMeasureUntil() const
{
    return m_measureUntil;
}

double
BackgroundHelper::GetFlowRate() const
{
    return m_flowRate;
}

} // namespace ns3
