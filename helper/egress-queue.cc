/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queue.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

TrafficControlHelper
EgressQueue::Helper() const
{
    TrafficControlHelper tch;
    if (kind == PFIFO_FAST)
    {
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc",
                             "MaxSize",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limitPackets)));
        return tch;
    }
    // PfifoFast's map from the priority (the ToS's precedence bits) to its three bands.
    const uint16_t root = tch.SetRootQueueDisc(
        "ns3::PrioQueueDisc", "Priomap", StringValue("1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1"));
    TrafficControlHelper::ClassIdList bands
        = tch.AddQueueDiscClasses(root, 3, "ns3::QueueDiscClass");
    const double k = ecnThresholdPackets;
    for (uint16_t band : bands)
    {
        tch.AddChildQueueDisc(root,
                              band,
                              "ns3::RedQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limitPackets)),
                              "MinTh",
                              DoubleValue(k),
                              "MaxTh",
                              DoubleValue(k),
                              "QW",
                              DoubleValue(1),
                              "Gentle",
                              BooleanValue(false),
                              "UseEcn",
                              BooleanValue(true),
                              "UseHardDrop",
                              BooleanValue(false),
                              "LinkBandwidth",
                              DataRateValue(linkRate),
                              "LinkDelay",
                              TimeValue(linkDelay));
    }
    return tch;
}

} // namespace ns3
