/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-helper.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/one-line-error.h"
#include "ns3/schedule-replay-pattern.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/web-search-pattern.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundHelper");

NS_OBJECT_ENSURE_REGISTERED(BackgroundHelper);

namespace
{

/** The initial value of `pattern`'s attribute `name`: the helper's deprecated copy's default. */
const AttributeValue&
PatternDefault(TypeId pattern, const std::string& name)
{
    TypeId::AttributeInformation info;
    pattern.LookupAttributeByName(name, &info);
    return *info.initialValue;
}

// A literal: GetTypeId runs during static initialization, before a std::string here would.
constexpr const char* kDeprecated
    = "an attribute of the pattern now: BackgroundHelper::SetPatternAttribute sets it";

} // namespace

TypeId
BackgroundHelper::GetTypeId()
{
    const TypeId webSearch = WebSearchPattern::GetTypeId();
    static TypeId tid
        = TypeId("ns3::BackgroundHelper")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<BackgroundHelper>()
              .AddAttribute("Pattern",
                            "Where the flows come from: a registered BackgroundPattern's name "
                            "(web-search, schedule, or one of the user's own).",
                            StringValue("web-search"),
                            MakeStringAccessor(&BackgroundHelper::m_pattern),
                            MakeStringChecker())
              .AddAttribute(
                  "FlowRate",
                  "The web-search pattern's FlowRate.",
                  PatternDefault(webSearch, "FlowRate"),
                  MakeDoubleAccessor(&BackgroundHelper::m_flowRate),
                  MakeDoubleChecker<double>(std::numeric_limits<double>::denorm_min(), 1e5),
                  TypeId::SupportLevel::DEPRECATED,
                  kDeprecated)
              .AddAttribute("CdfFile",
                            "The web-search pattern's CdfFile.",
                            PatternDefault(webSearch, "CdfFile"),
                            MakeStringAccessor(&BackgroundHelper::m_cdfFile),
                            MakeStringChecker(),
                            TypeId::SupportLevel::DEPRECATED,
                            kDeprecated)
              .AddAttribute("ScheduleFile",
                            "The schedule pattern's ScheduleFile; set while Pattern is "
                            "web-search, it selects the schedule pattern.",
                            PatternDefault(ScheduleReplayPattern::GetTypeId(), "ScheduleFile"),
                            MakeStringAccessor(&BackgroundHelper::m_scheduleFile),
                            MakeStringChecker(),
                            TypeId::SupportLevel::DEPRECATED,
                            kDeprecated)
              .AddAttribute("Stream",
                            "The web-search pattern's Stream.",
                            PatternDefault(webSearch, "Stream"),
                            MakeIntegerAccessor(&BackgroundHelper::m_stream),
                            MakeIntegerChecker<int64_t>(0),
                            TypeId::SupportLevel::DEPRECATED,
                            kDeprecated)
              .AddAttribute("Start",
                            "No flow the pattern times starts before this time.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&BackgroundHelper::m_start),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("Stop",
                            "No flow the pattern times starts at or after this time.",
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
              .AddAttribute("Priority",
                            "The tenant's BackgroundTenant::Priority, a priority's name (e.g. "
                            "low, band1); empty: Tos.",
                            StringValue(""),
                            MakeStringAccessor(&BackgroundHelper::m_priority),
                            MakeStringChecker());
    return tid;
}

BackgroundHelper::BackgroundHelper() = default;

void
BackgroundHelper::SetPatternAttribute(const std::string& name, const AttributeValue& value)
{
    m_patternAttributes.emplace_back(name, value.Copy());
}

Ptr<BackgroundPattern>
BackgroundHelper::CreatePattern() const
{
    NS_LOG_FUNCTION(this << m_pattern);
    const bool replay = m_pattern == "web-search" && !m_scheduleFile.empty(); // deprecated use
    ObjectFactory factory;
    factory.SetTypeId(BackgroundPattern::Lookup(replay ? "schedule" : m_pattern));
    Ptr<BackgroundPattern> pattern = factory.Create<BackgroundPattern>();
    const TypeId type = pattern->GetInstanceTypeId();
    const DoubleValue flowRate(m_flowRate);
    const StringValue cdfFile(m_cdfFile);
    const StringValue scheduleFile(m_scheduleFile);
    const IntegerValue stream(m_stream);
    const std::pair<const char*, const AttributeValue*> deprecated[]
        = {{"FlowRate", &flowRate},
           {"CdfFile", &cdfFile},
           {"ScheduleFile", &scheduleFile},
           {"Stream", &stream}};
    for (const auto& [name, value] : deprecated)
    {
        TypeId::AttributeInformation info;
        if (type.LookupAttributeByName(name, &info))
        {
            pattern->SetAttribute(name, *value);
        }
    }
    for (const auto& [name, value] : m_patternAttributes)
    {
        TypeId::AttributeInformation info;
        if (!type.LookupAttributeByName(name, &info)
            || !pattern->SetAttributeFailSafe(name, *value))
        {
            throw DdnnError(type.GetName() + "::" + name
                            + ": no such attribute, or a value it does not take");
        }
    }
    return pattern;
}

std::vector<ddnn_flow>
BackgroundHelper::MakeFlows(uint32_t servers) const
{
    NS_LOG_FUNCTION(this << servers);
    return CreatePattern()->MakeFlows(servers, m_start, m_stop);
}

double
BackgroundHelper::GetOfferedBytesPerSecond(uint32_t servers) const
{
    return CreatePattern()->GetOfferedBytesPerSecond(servers, m_start, m_stop);
}

double
BackgroundHelper::GetFlowRate() const
{
    DoubleValue rate(m_flowRate);
    Ptr<BackgroundPattern> pattern = CreatePattern();
    TypeId::AttributeInformation info;
    if (pattern->GetInstanceTypeId().LookupAttributeByName("FlowRate", &info))
    {
        pattern->GetAttribute("FlowRate", rate);
    }
    return rate.Get();
}

double
BackgroundHelper::GetMeanFlowBytes() const
{
    Ptr<WebSearchPattern> webSearch = DynamicCast<WebSearchPattern>(CreatePattern());
    if (!webSearch)
    {
        throw DdnnError("ns3::BackgroundHelper::GetMeanFlowBytes: the pattern '" + m_pattern
                        + "' has no flow-size CDF");
    }
    return webSearch->GetMeanFlowBytes();
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
    tenant->SetAttribute("Priority", StringValue(m_priority));
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

} // namespace ns3
