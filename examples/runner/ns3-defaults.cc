/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3-defaults.h"

#include "ddnn-scenario-params.h"

#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/** Whether `text` is a whole decimal number: one of `signs` or none, then digits. */
bool
IsInteger(const std::string& text, const std::string& signs)
{
    const size_t start = !text.empty() && signs.find(text[0]) != std::string::npos ? 1 : 0;
    return text.size() > start && text.find_first_not_of("0123456789", start) == std::string::npos;
}

/** Whether `text` is a decimal number that strtod reads whole (no hexadecimal, inf, nan). */
bool
IsDecimal(const std::string& text)
{
    char* end = nullptr;
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        return false;
    }
    std::strtod(text.c_str(), &end);
    return *end == '\0';
}

/** Whether ns-3 reads `text` as a whole value of the type it names, without aborting. */
bool
ReadsWhole(const std::string& valueType, const std::string& text)
{
    if (valueType == "ns3::DoubleValue")
    {
        return IsDecimal(text);
    }
    if (valueType == "ns3::UintegerValue")
    {
        return IsInteger(text, "+");
    }
    if (valueType == "ns3::IntegerValue")
    {
        return IsInteger(text, "+-");
    }
    if (valueType == "ns3::TimeValue")
    {
        // A number and one of ns-3's units (Time's parser aborts on any other text).
        const size_t unit = text.find_last_not_of("smunpfihdy") + 1;
        const std::string suffix = text.substr(unit);
        for (const char* known : {"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"})
        {
            if (suffix == known)
            {
                return IsDecimal(text.substr(0, unit));
            }
        }
        return false;
    }
    return true; // the others' parsers return false on bad text
}

/**
 * The ns-3 attributes the runner sets itself from a scenario value that is not their row's
 * (a row's own is its `sets`): a default given for one would be overridden, so it is refused,
 * naming the option that owns it.
 */
const std::pair<const char*, const char*> kRunnerSets[] = {
    {"ns3::TcpL4Protocol::SocketType", "--congestionControl"},
    {"ns3::TcpL4Protocol::RecoveryType", "--lossRecovery"},
    {"ns3::TcpSocket::InitialCwnd", "--initialCwnd"},
    {"ns3::TcpSocket::SegmentSize", "--segmentSize"},
    {"ns3::TcpSocket::SndBufSize", "--socketBufferBytes"},
    {"ns3::TcpSocket::RcvBufSize", "--socketBufferBytes"},
    {"ns3::TcpSocket::ConnTimeout", "--initialRtoMs"},
    {"ns3::RttEstimator::InitialEstimation", "--initialRtoMs"},
    {"ns3::TcpSocket::DelAckTimeout", "--delAckTimeoutUs"},
    {"ns3::TcpSocket::DelAckCount", "--delAckCount"},
    {"ns3::TcpSocketBase::MinRto", "--minRtoMs"},
    {"ns3::TcpSocketBase::ClockGranularity", "--clockGranularityUs"},
    {"ns3::TcpSocketBase::MaxSegLifetime", "--maxSegLifetimeMs"},
    {"ns3::TcpPartitionTransport::Tos", "--trainingPriority or --band"},
    {"ns3::TcpPartitionTransport::AckTos", "--trainingPriority or --band"},
    {"ns3::TcpPartitionTransport::SendChunkBytes", "--sendChunkBytes"},
    {"ns3::TcpPartitionTransport::CongestionControl", "--trainingCongestionControl"},
    {"ns3::SlackAdaptivePriority::NominalRate", "--dataRate (the rate TCP reaches on it)"},
    {"ns3::BackgroundHelper::Tos", "--trainingPriority"},
    {"ns3::BackgroundHelper::Start", "--durationS"},
    {"ns3::BackgroundHelper::Stop", "--durationS"},
    {"ns3::BackgroundHelper::MeasureFrom", "--warmupS"},
    {"ns3::BackgroundHelper::MeasureUntil", "--cooldownS"},
    {"ns3::BackgroundTenant::SendChunkBytes", "--sendChunkBytes"},
    {"ns3::BackgroundTenant::AcksInDataBand", "--backgroundAcksInDataBand"},
    {"ns3::BackgroundTenant::CongestionControl", "--backgroundCongestionControl"},
    {"ns3::PrioQueueDisc::Priomap", "--queueDisc"},
    {"ns3::WeightedBandQueueDisc::Weights", "--bandWeights"},
    {"ns3::LeastSlackQueueDisc::Mode", "--queueDisc (least-slack or least-slack-hybrid)"},
    {"ns3::LeastSlackQueueDisc::MaxSize",
     "ns3::SingleTorHelper::QueueDiscLimitPackets (switches) or --hostBandPackets (servers)"},
    {"ns3::LeastSlackQueueDisc::LinkRate", "--dataRate"},
    {"ns3::TcpPartitionTransport::SlackTags", "--queueDisc"},
    {"ns3::BackgroundTenant::SlackTags", "--queueDisc"},
    // The topologies' (a subclass's spelling, ns3::LeafSpineHelper::..., is the same attribute)
    {"ns3::SingleTorHelper::Servers", "--workers (one server per worker on a single ToR)"},
    {"ns3::SingleTorHelper::DataRate", "--dataRate"},
    {"ns3::SingleTorHelper::Delay", "--delayUs"},
    {"ns3::SingleTorHelper::RateCap", "--rateCap"},
    {"ns3::SingleTorHelper::QueueDisc", "--queueDisc"},
    {"ns3::SingleTorHelper::EcnThresholdPackets", "--ecnThresholdPackets"},
    {"ns3::SingleTorHelper::BandWeights", "--bandWeights"},
    {"ns3::SingleTorHelper::ServerBandLimitPackets", "--hostBandPackets"},
    {"ns3::FabricTopology::ServerDataRate", "--dataRate"},
    {"ns3::FabricTopology::FabricDataRate", "--fabricDataRate"},
    {"ns3::FabricTopology::ServerDelay", "--delayUs"},
    {"ns3::FabricTopology::FabricDelay", "--delayUs"},
    {"ns3::FabricTopology::QueueDisc", "--queueDisc"},
    {"ns3::FabricTopology::EcnThresholdPackets", "--ecnThresholdPackets"},
    {"ns3::FabricTopology::BandWeights", "--bandWeights"},
    {"ns3::FabricTopology::ServerBandLimitPackets", "--hostBandPackets"},
    // What the module's objects set on the objects they make
    {"ns3::DnnModel::ComputeTime", "--computeMs or --rcp"},
    {"ns3::SyncMessenger::Port", "ns3::TrainingJob::SyncPort"},
    {"ns3::SyncMessenger::Tos", "--trainingPriority"},
    {"ns3::MulticastSender::Port", "ns3::TcpPartitionTransport::Port"},
    {"ns3::MulticastSender::Tos", "--trainingPriority"},
    {"ns3::MulticastReceiver::Port", "ns3::TcpPartitionTransport::Port"},
    {"ns3::MulticastReceiver::Tos", "--trainingPriority"},
    // The egress queue discs' (EgressQueue builds them whole)
    {"ns3::PfifoFastQueueDisc::MaxSize",
     "ns3::SingleTorHelper::QueueDiscLimitPackets (switches) or --hostBandPackets (servers)"},
    {"ns3::FifoQueueDisc::MaxSize",
     "ns3::SingleTorHelper::QueueDiscLimitPackets (switches) or --hostBandPackets (servers)"},
    {"ns3::RedQueueDisc::MaxSize",
     "ns3::SingleTorHelper::QueueDiscLimitPackets (switches) or --hostBandPackets (servers)"},
    {"ns3::RedQueueDisc::MinTh", "--ecnThresholdPackets"},
    {"ns3::RedQueueDisc::MaxTh", "--ecnThresholdPackets"},
    {"ns3::RedQueueDisc::QW", "--queueDisc=prio-red (a queue weight of 1)"},
    {"ns3::RedQueueDisc::Gentle", "--queueDisc=prio-red (not gentle)"},
    {"ns3::RedQueueDisc::UseEcn", "--queueDisc=prio-red (it marks)"},
    {"ns3::RedQueueDisc::UseHardDrop", "--queueDisc=prio-red (it marks)"},
    {"ns3::RedQueueDisc::LinkBandwidth", "--dataRate"},
    {"ns3::RedQueueDisc::LinkDelay", "--delayUs"},
};

/**
 * Whether the ns-3 default `given` ("ns3::T::A") sets the attribute `listed` ("ns3::U::A"):
 * ns-3 finds an attribute through a type's parents, so T may be U or a subclass of it.
 */
bool
SetsAttribute(const std::string& given, const std::string& listed)
{
    if (given == listed)
    {
        return true;
    }
    const size_t g = given.rfind("::");
    const size_t l = listed.rfind("::");
    TypeId givenType;
    TypeId listedType;
    return g != std::string::npos && l != std::string::npos && given.substr(g) == listed.substr(l)
           && TypeId::LookupByNameFailSafe(given.substr(0, g), &givenType)
           && TypeId::LookupByNameFailSafe(listed.substr(0, l), &listedType)
           && givenType.IsChildOf(listedType);
}

} // namespace

std::string
Ns3DefaultOwner(const std::string& name)
{
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        if (p->sets && SetsAttribute(name, p->sets))
        {
            return std::string("--") + p->flag;
        }
    }
    for (const auto& [attribute, option] : kRunnerSets)
    {
        if (SetsAttribute(name, attribute))
        {
            return option;
        }
    }
    return "";
}

std::vector<std::string>
Ns3DefaultsOwned()
{
    std::vector<std::string> names;
    for (const auto& entry : kRunnerSets)
    {
        names.emplace_back(entry.first);
    }
    return names;
}

Ns3Defaults
Ns3DefaultsOf(const ddnn_scenario& scenario)
{
    Ns3Defaults defaults;
    for (uint32_t i = 0; i < scenario.ns3_default_count; ++i)
    {
        defaults.emplace_back(scenario.ns3_defaults[i].name, scenario.ns3_defaults[i].value);
    }
    return defaults;
}

Ns3Defaults
Ns3DefaultsOnCommandLine(int argc, char* argv[])
{
    Ns3Defaults defaults;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t equals = arg.find('=');
        if (arg.compare(0, 7, "--ns3::") == 0 && equals != std::string::npos)
        {
            defaults.emplace_back(arg.substr(2, equals - 2), arg.substr(equals + 1));
        }
    }
    return defaults;
}

void
ApplyNs3Defaults(const Ns3Defaults& defaults, const std::string& where)
{
    for (const auto& [name, value] : defaults)
    {
        const size_t colons = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        auto fail = [&](const std::string& why) {
            throw DdnnError(where == "the command line"
                                ? "--" + name + "=" + value + ": " + why
                                : where + ": <ns3-default name=\"" + name + "\" value=\"" + value
                                      + "\">: " + why);
        };
        if (colons == std::string::npos
            || !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid)
            || !tid.LookupAttributeByName(name.substr(colons + 2), &info))
        {
            fail("expected an attribute ns-3 has, such as ns3::TcpSocket::SegmentSize");
        }
        if (const std::string refusal = OwnedAttributeRefusal(name, value); !refusal.empty())
        {
            fail(refusal);
        }
        if (const std::string owner = Ns3DefaultOwner(name); !owner.empty())
        {
            fail("ddnn sets this attribute from " + owner + ": give that instead");
        }
        Ptr<AttributeValue> valid = ReadsWhole(info.checker->GetValueTypeName(), value)
                                        ? info.checker->CreateValidValue(StringValue(value))
                                        : nullptr;
        if (!valid)
        {
            fail("expected a value of " + info.checker->GetValueTypeName() + " that "
                 + name.substr(colons + 2) + " accepts");
        }
        Config::SetDefault(name, *valid);
    }
}

std::string
OwnedAttributeRefusal(const std::string& name, const std::string& value)
{
    const ddnn_param* p = ddnn_scenario_param_setting(name.c_str());
    if (!p
        || (p->type != DDNN_PARAM_U32 && p->type != DDNN_PARAM_U64 && p->type != DDNN_PARAM_DOUBLE))
    {
        return "";
    }
    std::string text = value;
    const std::string unit = p->unit;
    if (unit == "s" || unit == "ms" || unit == "us")
    {
        // The attribute is a Time ("5ms"); the row's number is in its unit.
        TimeValue time;
        if (!time.DeserializeFromString(value, MakeTimeChecker()))
        {
            return ""; // not a time: the attribute's own checker says so
        }
        // In whole nanoseconds: Time::ToDouble shifts a negative value left (undefined in C++17).
        const double nanoseconds = unit == "s" ? 1e9 : unit == "ms" ? 1e6 : 1e3;
        std::ostringstream number;
        number << std::setprecision(17)
               << static_cast<double>(time.Get().GetNanoSeconds()) / nanoseconds;
        text = number.str();
    }
    ddnn_scenario scratch{};
    ddnn_diag why{};
    if (ddnn_scenario_set_param(&scratch, p, text.c_str(), &why) == DDNN_OK)
    {
        return "";
    }
    if (text == value)
    {
        return why.message;
    }
    char expected[160];
    ddnn_param_describe(p, expected, sizeof expected);
    return std::string("expected ") + expected + ", got '" + value + "'";
}

} // namespace ns3
