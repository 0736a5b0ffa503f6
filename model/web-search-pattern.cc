/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "web-search-pattern.h"

#include "ns3/data-path.h"
#include "ns3/ddnn-cdf.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"

#include <cmath>
#include <limits>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WebSearchPattern");

NS_OBJECT_ENSURE_REGISTERED(WebSearchPattern);

[[maybe_unused]] static const bool g_registered
    = BackgroundPattern::Register("web-search", &WebSearchPattern::GetTypeId);

TypeId
WebSearchPattern::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::WebSearchPattern")
              .SetParent<BackgroundPattern>()
              .SetGroupName("Ddnn")
              .AddConstructor<WebSearchPattern>()
              .AddAttribute(
                  "FlowRate",
                  "Flows per second started by each server (the cluster starts servers "
                  "times as many).",
                  DoubleValue(23),
                  MakeDoubleAccessor(&WebSearchPattern::m_flowRate),
                  MakeDoubleChecker<double>(std::numeric_limits<double>::denorm_min(), 1e5))
              .AddAttribute("CdfFile",
                            "Flow-size CDF (bytes,cumulative_fraction).",
                            StringValue(DdnnDataPath("web-search-cdf.csv")),
                            MakeStringAccessor(&WebSearchPattern::m_cdfFile),
                            MakeStringChecker())
              .AddAttribute("Stream",
                            "Random stream index of the generator.",
                            IntegerValue(1000),
                            MakeIntegerAccessor(&WebSearchPattern::m_stream),
                            MakeIntegerChecker<int64_t>(0));
    return tid;
}

WebSearchPattern::WebSearchPattern() = default;

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
    CheckReadOutcome(ddnn_cdf_read_file(&cdf, path.c_str(), &diag),
                     diag,
                     path,
                     "ns3::WebSearchPattern::CdfFile");
    return std::unique_ptr<ddnn_cdf, CdfDeleter>(cdf);
}

double
NextUniform(void* ctx)
{
    return static_cast<UniformRandomVariable*>(ctx)->GetValue(0.0, 1.0);
}

} // namespace

double
WebSearchPattern::GetMeanFlowBytes() const
{
    return ddnn_cdf_mean(ReadCdf(m_cdfFile).get());
}

double
WebSearchPattern::GetOfferedBytesPerSecond(uint32_t, Time, Time) const
{
    return m_flowRate * GetMeanFlowBytes();
}

std::vector<ddnn_flow>
WebSearchPattern::MakeFlows(uint32_t servers, Time start, Time stop) const
{
    NS_LOG_FUNCTION(this << servers << start << stop);
    if (!(m_flowRate > 0) || !std::isfinite(m_flowRate))
    {
        throw DdnnError("ns3::WebSearchPattern::FlowRate: expected a positive number of flows "
                        "per second per server, got "
                        + std::to_string(m_flowRate));
    }
    if (stop < start)
    {
        throw DdnnError("ns3::BackgroundHelper::Stop: earlier than Start");
    }
    auto cdf = ReadCdf(m_cdfFile);
    Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
    uniform->SetStream(m_stream);
    ddnn_flowgen_config cfg{servers,
                            m_flowRate,
                            static_cast<uint64_t>(start.GetNanoSeconds()),
                            static_cast<uint64_t>(stop.GetNanoSeconds())};
    ddnn_flowgen* gen = nullptr;
    int rc = ddnn_flowgen_new(&gen, &cfg, cdf.get(), &NextUniform, PeekPointer(uniform));
    if (rc != DDNN_OK)
    {
        throw DdnnError(std::string("ns3::WebSearchPattern: ") + ddnn_strerror(rc));
    }
    std::vector<ddnn_flow> flows;
    ddnn_flow flow;
    while (ddnn_flowgen_next(gen, &flow) == 1)
    {
        flows.push_back(flow);
    }
    ddnn_flowgen_free(gen);
    return flows;
}

} // namespace ns3
