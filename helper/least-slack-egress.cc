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

/** A LeastSlackQueueDisc of `mode` holding BandLimit() packets. */
void
BuildLeastSlack(const EgressQueue& queue, TrafficControlHelper& tch, LeastSlackQueueDisc::Mode mode)
{
    tch.SetRootQueueDisc("ns3::LeastSlackQueueDisc",
                         "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue.BandLimit())),
                         "Mode",
                         EnumValue(mode),
                         "LinkRate",
                         DataRateValue(queue.linkRate));
}

} // namespace

// Band 0 the background's, band 1 the training's: a packet's SlackTag, not its ToS, picks it.
[[maybe_unused]] static const EgressQueue::Kind g_leastSlack
    = EgressQueue::Register({"least-slack",
                             "LeastSlack",
                             {0x00, 0x08},
                             [](const EgressQueue& queue, TrafficControlHelper& tch) {
                                 BuildLeastSlack(queue, tch, LeastSlackQueueDisc::PURE);
                             },
                             nullptr,
                             false,
                             true});
[[maybe_unused]] static const EgressQueue::Kind g_leastSlackHybrid
    = EgressQueue::Register({"least-slack-hybrid",
                             "LeastSlackHybrid",
                             {0x00, 0x08},
                             [](const EgressQueue& queue, TrafficControlHelper& tch) {
                                 BuildLeastSlack(queue, tch, LeastSlackQueueDisc::HYBRID);
                             },
                             nullptr,
                             false,
                             true});

} // namespace ns3
