/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transport-settings.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ddnn-scenario-params.h"
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
{
    ddnn_scenario defaults;
    ddnn_scenario_defaults(&defaults);
    *this = TransportSettings(defaults);
}

TransportSettings
TransportSettings::Profile(const std::string& name)
{
    ddnn_scenario core;
    ddnn_scenario_defaults(&core);
    ddnn_diag diag{};
    if (ddnn_scenario_set_param(
            &core, ddnn_scenario_param_named("transport.profile"), name.c_str(), &diag)
        != DDNN_OK)
    {
        throw DdnnError("--transportProfile: " + std::string(diag.message));
    }
    return TransportSettings(core);
}

TransportSettings::TransportSettings(const ddnn_scenario& x)
    : profile(x.transport_profile)
    , congestionControl(x.congestion_control)
    , trainingCongestionControl(x.training_congestion_control)
    , backgroundCongestionControl(x.background_congestion_control)
    , segmentSize(x.segment_size)
    , socketBufferBytes(x.socket_buffer_bytes)
    , initialCwnd(x.initial_cwnd)
    , lossRecovery(x.loss_recovery)
    , minRtoMs(x.min_rto_ms)
    , initialRtoMs(x.initial_rto_ms)
    , clockGranularityUs(x.clock_granularity_us)
    , delAckTimeoutUs(x.del_ack_timeout_us)
    , delAckCount(x.del_ack_count)
    , maxSegLifetimeMs(x.max_seg_lifetime_ms)
    , sendChunkBytes(x.send_chunk_bytes)
    , backgroundAcksInDataBand(x.background_acks_in_data_band != 0)
{
}

void
TransportSettings::ToCore(ddnn_scenario& x) const
{
    auto copy = [](char* dst, size_t size, const std::string& text, const char* flag) {
        if (text.size() >= size)
        {
            throw DdnnError(std::string(flag) + ": '" + text + "' is too long");
        }
        text.copy(dst, text.size());
        dst[text.size()] = '\0';
    };
    copy(x.transport_profile, sizeof x.transport_profile, profile, "--transportProfile");
    copy(x.congestion_control,
         sizeof x.congestion_control,
         congestionControl,
         "--congestionControl");
    copy(x.training_congestion_control,
         sizeof x.training_congestion_control,
         trainingCongestionControl,
         "--trainingCongestionControl");
    copy(x.background_congestion_control,
         sizeof x.background_congestion_control,
         backgroundCongestionControl,
         "--backgroundCongestionControl");
    x.segment_size = segmentSize;
    x.socket_buffer_bytes = socketBufferBytes;
    x.initial_cwnd = initialCwnd;
    copy(x.loss_recovery, sizeof x.loss_recovery, lossRecovery, "--lossRecovery");
    x.min_rto_ms = minRtoMs;
    x.initial_rto_ms = initialRtoMs;
    x.clock_granularity_us = clockGranularityUs;
    x.del_ack_timeout_us = delAckTimeoutUs;
    x.del_ack_count = delAckCount;
    x.max_seg_lifetime_ms = maxSegLifetimeMs;
    x.send_chunk_bytes = sendChunkBytes;
    x.background_acks_in_data_band = backgroundAcksInDataBand ? 1 : 0;
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
