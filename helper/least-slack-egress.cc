/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queue.h"

#include "ns3/enum.h"
#include "ns3/least-slack-queue-disc.h"

namespace ns3
{

namespace
{

/** The entry of a LeastSlackQueueDisc of `mode` holding BandLimit() packets; band 0 the
 * background's, band 1 the training's (a packet's SlackTag, not its ToS, picks it). */
EgressQueue::Entry
LeastSlackEntry(const std::string& name,
                const std::string& attributeName,
                LeastSlackQueueDisc::Mode mode)
{
    auto build = [mode](const EgressQueue& queue, TrafficControlHelper& tch) {
        tch.SetRootQueueDisc("ns3::LeastSlackQueueDisc",
                             "MaxSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue.BandLimit())),
                             "Mode",
                             EnumValue(mode),
                             "LinkRate",
                             DataRateValue(queue.linkRate));
    };
    return {name, attributeName, {0x00, 0x08}, build, nullptr, false, true};
}

} // namespace

[[maybe_unused]] static const EgressQueue::Kind g_leastSlack = EgressQueue::Register(
    LeastSlackEntry("least-slack", "LeastSlack", LeastSlackQueueDisc::PURE));
[[maybe_unused]] static const EgressQueue::Kind g_leastSlackHybrid = EgressQueue::Register(
    LeastSlackEntry("least-slack-hybrid", "LeastSlackHybrid", LeastSlackQueueDisc::HYBRID));

} // namespace ns3
