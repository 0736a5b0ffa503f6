/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transport-settings.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ddnn-transport-profile.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/one-line-error.h"
#include "ns3/tcp-prr-recovery.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <utility>

namespace ns3
{

namespace
{

/** TCP 20 + timestamp option 12, IPv4 20, PPP 2 bytes per segment. */
const uint32_t kHeaderBytes = 20 + 12 + 20 + 2;

/** Whole nanoseconds of a positive time given in a unit (ms = 1e6, us = 1e3). */
Time
FromUnit(double value, double nanosecondsPerUnit)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(value * nanosecondsPerUnit)));
}

} // namespace

TransportSettings::TransportSettings()
    : TransportSettings(std::string(DDNN_TRANSPORT_DEFAULT_PROFILE))
{
}

TransportSettings
TransportSettings::Profile(const std::string& name)
{
    if (!ddnn_transport_profile_value(name.c_str(), "segment-size"))
    {
        std::string expected;
        for (size_t i = 0; ddnn_transport_profile_name(i); ++i)
        {
            expected += (i > 0 ? ", " : "") + std::string(ddnn_transport_profile_name(i));
        }
        throw DdnnError("--transportProfile: expected one of " + expected + ", got '" + name + "'");
    }
    return TransportSettings(name);
}

TransportSettings::TransportSettings(const std::string& name)
    : profile(name)
{
    // The profile's texts are the module's own constants (ddnn-transport-profile.c), which the
    // unit test scenario-params reads through every row's parser: std::sto* cannot fail here.
    auto text = [&name](const char* attribute) {
        return std::string(ddnn_transport_profile_value(name.c_str(), attribute));
    };
    auto whole = [&text](const char* attribute) {
        return static_cast<uint32_t>(std::stoul(text(attribute)));
    };
    auto number = [&text](const char* attribute) { return std::stod(text(attribute)); };
    congestionControl = text("congestion-control");
    trainingCongestionControl = text("training-congestion-control");
    backgroundCongestionControl = text("background-congestion-control");
    segmentSize = whole("segment-size");
    socketBufferBytes = whole("socket-buffer-bytes");
    initialCwnd = whole("initial-cwnd");
    lossRecovery = text("loss-recovery");
    minRtoMs = number("min-rto-ms");
    initialRtoMs = number("initial-rto-ms");
    clockGranularityUs = number("clock-granularity-us");
    delAckTimeoutUs = number("del-ack-timeout-us");
    delAckCount = whole("del-ack-count");
    maxSegLifetimeMs = number("max-seg-lifetime-ms");
    sendChunkBytes = whole("send-chunk-bytes");
    backgroundAcksInDataBand = text("background-acks-in-data-band") == "true";
}

void
TransportSettings::Apply() const
{
    TypeId congestion;
    if (!TypeId::LookupByNameFailSafe("ns3::Tcp" + congestionControl, &congestion))
    {
        throw DdnnError("--congestionControl: ns3::Tcp" + congestionControl
                        + " does not exist in this ns-3 release");
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(congestion));
    // A named array: gcc 14 takes pairs in a braced list for dangling references.
    const std::pair<const char*, std::string> tenants[]
        = {{"--trainingCongestionControl", trainingCongestionControl},
           {"--backgroundCongestionControl", backgroundCongestionControl}};
    for (const auto& [flag, choice] : tenants)
    {
        const std::string name = TenantCongestionControl(choice);
        if (!name.empty() && !TypeId::LookupByNameFailSafe(name, &congestion))
        {
            throw DdnnError(std::string(flag) + ": " + name
                            + " does not exist in this ns-3 release");
        }
    }
    if (lossRecovery != "prr" && lossRecovery != "classic")
    {
        throw DdnnError("--lossRecovery: expected prr or classic, got '" + lossRecovery + "'");
    }
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(lossRecovery == "prr" ? TcpPrrRecovery::GetTypeId()
                                                         : TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(socketBufferBytes));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(socketBufferBytes));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(FromUnit(initialRtoMs, 1e6)));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(FromUnit(delAckTimeoutUs, 1e3)));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(FromUnit(minRtoMs, 1e6)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity",
                       TimeValue(FromUnit(clockGranularityUs, 1e3)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation",
                       TimeValue(FromUnit(initialRtoMs, 1e6)));
    Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime", DoubleValue(maxSegLifetimeMs / 1e3));
}

std::string
TransportSettings::TenantCongestionControl(const std::string& choice)
{
    return choice == "same" ? "" : "ns3::Tcp" + choice;
}

double
TransportSettings::GoodputFraction() const
{
    return static_cast<double>(segmentSize) / WirePacketBytes();
}

uint32_t
TransportSettings::WirePacketBytes() const
{
    return segmentSize + kHeaderBytes;
}

Time
TransportSettings::IdealStepLatency(DataRate rate, Time delay, uint32_t links) const
{
    return static_cast<int64_t>(links) * delay
           + static_cast<int64_t>(links - 1) * rate.CalculateBytesTxTime(WirePacketBytes());
}

} // namespace ns3
