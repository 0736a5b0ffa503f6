/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queue.h"

#include "../model/ns3-compat.h"

#include "ns3/abort.h"
#include "ns3/one-line-error.h"
#include "ns3/queue-disc-band.h"
#include "ns3/type-id-registry.h"

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

namespace
{

/** PfifoFast's map from a packet's priority (its ToS's precedence bits) to its three bands. */
const char* const kPfifoFastPriomap = "1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1";

/**
 * PfifoFast: three bands by the ToS's priority, LimitPackets for the three together. With
 * bandLimitPackets, the same three bands in strict priority with the same map, each a FIFO of
 * that many packets (as the thesis code's servers' queues): ns-3's PfifoFast itself refuses
 * internal queues shorter than its limit (an assertion of debug builds).
 */
void
BuildPfifoFast(const EgressQueue& queue, TrafficControlHelper& tch)
{
    if (queue.bandLimitPackets > 0)
    {
        const uint16_t root
            = tch.SetRootQueueDisc("ns3::PrioQueueDisc", "Priomap", StringValue(kPfifoFastPriomap));
        queue.AddFifoBands(tch, root, 3);
        return;
    }
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc",
                         "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue.limitPackets)));
}

/** PfifoFast's bands, each a RED marking ECN from EcnThresholdPackets on (DCTCP's K). */
void
BuildPrioRed(const EgressQueue& queue, TrafficControlHelper& tch)
{
    const uint16_t root
        = tch.SetRootQueueDisc("ns3::PrioQueueDisc", "Priomap", StringValue(kPfifoFastPriomap));
    TrafficControlHelper::ClassIdList bands
        = tch.AddQueueDiscClasses(root, 3, "ns3::QueueDiscClass");
    const double k = queue.ecnThresholdPackets;
    for (uint16_t band : bands)
    {
        tch.AddChildQueueDisc(root,
                              band,
                              "ns3::RedQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue.BandLimit())),
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
                              DataRateValue(queue.linkRate),
                              "LinkDelay",
                              TimeValue(queue.linkDelay));
    }
}

/** Four FIFO bands in strict priority, one per ToS a tenant can get. */
void
BuildPrio4(const EgressQueue& queue, TrafficControlHelper& tch)
{
    // Priorities from the ToS: 6 (0x10), 4 (0x18), 0 (0x00), 2 (0x08); the rest as 0.
    const uint16_t root = tch.SetRootQueueDisc(
        "ns3::PrioQueueDisc", "Priomap", StringValue("2 2 3 3 1 1 0 0 2 2 2 2 2 2 2 2"));
    queue.AddFifoBands(tch, root, 4);
}

/** The registered queue discs, by Kind: the built-in ones first, in Kind's order. */
NamedRegistry<EgressQueue::Entry>&
Registry()
{
    static NamedRegistry<EgressQueue::Entry> entries = [] {
        NamedRegistry<EgressQueue::Entry> made("queue disc",
                                               NamedRegistry<EgressQueue::Entry>::REGISTERED);
        for (EgressQueue::Entry entry : {
                 EgressQueue::Entry{"pfifo-fast", "PfifoFast", {0x10, 0x00, 0x08}, BuildPfifoFast},
                 EgressQueue::Entry{"prio-red", "PrioRed", {0x10, 0x00, 0x08}, BuildPrioRed},
                 EgressQueue::Entry{"prio4", "Prio4", {0x10, 0x18, 0x00, 0x08}, BuildPrio4},
             })
        {
            made.Register(entry.name, entry);
        }
        return made;
    }();
    return entries;
}

/** The one checker of every QueueDisc attribute, so that Register extends them all. */
Ptr<DdnnEnumChecker<EgressQueue::Kind>>
KindChecker()
{
    static Ptr<DdnnEnumChecker<EgressQueue::Kind>> checker = [] {
        auto made = Create<DdnnEnumChecker<EgressQueue::Kind>>();
        for (size_t i = 0; i < Registry().Size(); ++i)
        {
            made->Add(static_cast<EgressQueue::Kind>(i), Registry().At(i).attributeName);
        }
        return made;
    }();
    return checker;
}

} // namespace

void
EgressQueue::AddFifoBands(TrafficControlHelper& tch, uint16_t root, uint16_t bands) const
{
    for (uint16_t band : tch.AddQueueDiscClasses(root, bands, "ns3::QueueDiscClass"))
    {
        tch.AddChildQueueDisc(root,
                              band,
                              "ns3::FifoQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, BandLimit())));
    }
}

std::vector<Ptr<Object>>
EgressQueue::BandQueues(Ptr<QueueDisc> disc)
{
    std::vector<Ptr<Object>> bands;
    for (size_t i = 0; i < disc->GetNQueueDiscClasses(); ++i)
    {
        bands.push_back(disc->GetQueueDiscClass(i)->GetQueueDisc());
    }
    if (disc->GetNQueueDiscClasses() == 0)
    {
        for (size_t i = 0; i < disc->GetNInternalQueues(); ++i)
        {
            bands.push_back(disc->GetInternalQueue(i));
        }
    }
    return bands;
}

uint32_t
EgressQueue::BandLimit() const
{
    return bandLimitPackets > 0 ? bandLimitPackets : limitPackets;
}

std::string
EgressQueue::CheckSettings() const
{
    const Entry& entry = Get(kind);
    return entry.check ? entry.check(*this) : "";
}

EgressQueue::Kind
EgressQueue::Register(Entry entry)
{
    for (size_t i = 0; i < Registry().Size(); ++i)
    {
        const Entry& known = Registry().At(i);
        if (known.name == entry.name || known.attributeName == entry.attributeName)
        {
            throw DdnnError("queue disc '" + entry.name + "' (" + entry.attributeName
                            + "): a queue disc of that name is already registered");
        }
    }
    if (entry.bandTos.empty() || !entry.build)
    {
        throw DdnnError("queue disc '" + entry.name + "': needs at least one band and a builder");
    }
    const std::string name = entry.name;
    const Kind kind = static_cast<Kind>(Registry().Register(name, std::move(entry)));
    KindChecker()->Add(kind, Registry().At(kind).attributeName);
    return kind;
}

const EgressQueue::Entry&
EgressQueue::Get(Kind kind)
{
    NS_ABORT_MSG_UNLESS(kind >= 0 && static_cast<size_t>(kind) < Registry().Size(),
                        "no queue disc registered as " << kind);
    return Registry().At(kind);
}

std::vector<std::string>
EgressQueue::Names()
{
    return Registry().Names();
}

EgressQueue::Kind
EgressQueue::FromScenario(const std::string& name)
{
    return static_cast<Kind>(Registry().IndexOf(name));
}

uint32_t
EgressQueue::Bands(Kind kind)
{
    return Get(kind).bandTos.size();
}

uint8_t
EgressQueue::TosOfBand(Kind kind, uint32_t band)
{
    NS_ABORT_MSG_UNLESS(band < Bands(kind), "no band " << band);
    return Get(kind).bandTos[band];
}

Ptr<const AttributeChecker>
EgressQueue::MakeKindChecker()
{
    return KindChecker();
}

TrafficControlHelper
EgressQueue::Helper() const
{
    TrafficControlHelper tch;
    Get(kind).build(*this, tch);
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
    CheckBands(discs);
    return discs;
}

void
EgressQueue::CheckBands(const QueueDiscContainer& discs)
{
    for (uint32_t i = 0; i < discs.GetN(); ++i)
    {
        if (const std::string problem = QueueDiscBandProblem(discs.Get(i)); !problem.empty())
        {
            throw DdnnError(problem);
        }
    }
}

} // namespace ns3
