/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queue.h"

#include "ns3/abort.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

EgressQueue::Kind
EgressQueue::FromScenario(const std::string& name)
{
    return name == "prio-red" ? PRIO_RED : name == "prio4" ? PRIO4 : PFIFO_FAST;
}

uint32_t
EgressQueue::Bands(Kind kind)
{
    return kind == PRIO4 ? 4 : 3;
}

uint8_t
EgressQueue::TosOfBand(Kind kind, uint32_t band)
{
    NS_ABORT_MSG_UNLESS(band < Bands(kind), "no band " << band);
    // PfifoFast's priority map (PrioRed keeps it) and Prio4's, by band.
    static const uint8_t threeBands[] = {0x10, 0x00, 0x08};
    static const uint8_t fourBands[] = {0x10, 0x18, 0x00, 0x08};
    return kind == PRIO4 ? fourBands[band] : threeBands[band];
}

Ptr<const AttributeChecker>
EgressQueue::MakeKindChecker()
{
    return MakeEnumChecker(PFIFO_FAST, "PfifoFast", PRIO_RED, "PrioRed", PRIO4, "Prio4");
}

TrafficControlHelper
EgressQueue::Helper() const
{
    TrafficControlHelper tch;
    const QueueSizeValue limit(QueueSize(QueueSizeUnit::PACKETS, limitPackets));
    if (kind == PFIFO_FAST)
    {
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", limit);
        return tch;
    }
    if (kind == PRIO4)
    {
        // Priorities from the ToS: 6 (0x10), 4 (0x18), 0 (0x00), 2 (0x08); the rest as 0.
        const uint16_t root = tch.SetRootQueueDisc(
            "ns3::PrioQueueDisc", "Priomap", StringValue("2 2 3 3 1 1 0 0 2 2 2 2 2 2 2 2"));
        for (uint16_t band : tch.AddQueueDiscClasses(root, 4, "ns3::QueueDiscClass"))
        {
            tch.AddChildQueueDisc(root, band, "ns3::FifoQueueDisc", "MaxSize", limit);
        }
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
                              limit,
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

QueueDiscContainer
EgressQueue::Install(NodeContainer nodes) const
{
    NetDeviceContainer devices;
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        for (uint32_t d = 0; d < nodes.Get(n)->GetNDevices(); ++d)
        {
            devices.Add(nodes.Get(n)->GetDevice(d));
        }
    }
    return Install(devices);
}

QueueDiscContainer
EgressQueue::Install(NetDeviceContainer devices) const
{
    TrafficControlHelper helper = Helper();
    QueueDiscContainer discs;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NetDevice> device = devices.Get(i);
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        if (!tc || DynamicCast<LoopbackNetDevice>(device))
        {
            continue;
        }
        if (tc->GetRootQueueDiscOnDevice(device))
        {
            helper.Uninstall(device);
        }
        PointerValue queue;
        if (devicePackets > 0 && device->GetAttributeFailSafe("TxQueue", queue))
        {
            if (Ptr<QueueBase> txQueue = queue.Get<QueueBase>())
            {
                txQueue->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, devicePackets));
            }
        }
        discs.Add(helper.Install(device));
    }
    return discs;
}

} // namespace ns3
