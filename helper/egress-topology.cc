/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-topology.h"

#include "../model/ns3-compat.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EgressTopology");

NS_OBJECT_ENSURE_REGISTERED(EgressTopology);

TypeId
EgressTopology::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::EgressTopology")
              .SetParent<ServerList>()
              .SetGroupName("Ddnn")
              .AddAttribute("DeviceQueuePackets",
                            "Size of each device's transmit queue, in packets (below the queue "
                            "disc).",
                            UintegerValue(1),
                            MakeUintegerAccessor(&EgressTopology::m_deviceQueuePackets),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute(
                  "QueueDisc",
                  "Queue disc on every egress, by the name EgressQueue registers it under (the "
                  "checker lists them; doc/user.rst describes each).",
                  EnumValue(EgressQueue::PFIFO_FAST),
                  DDNN_ENUM_ACCESSOR(EgressQueue::Kind, &EgressTopology::m_queueKind),
                  EgressQueue::MakeKindChecker())
              .AddAttribute("BandWeights",
                            "WeightedBands: one weight per band (0, 1, 2), blank-separated: "
                            "with every band backlogged, band i gets weight i / their sum of "
                            "the link.",
                            StringValue("1 1 1"),
                            MakeStringAccessor(&EgressTopology::m_bandWeights),
                            MakeStringChecker())
              .AddAttribute("EcnThresholdPackets",
                            "PrioRed: queue length in packets from which a band marks (DCTCP's "
                            "K; 65 at 10 Gbit/s in the DCTCP paper).",
                            UintegerValue(65),
                            MakeUintegerAccessor(&EgressTopology::m_ecnThreshold),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("QueueDiscLimitPackets",
                            "Queue disc limit in packets: PfifoFast's for its three bands "
                            "together, PrioRed's per band (see EgressQueue).",
                            UintegerValue(1000),
                            MakeUintegerAccessor(&EgressTopology::m_queueDiscLimit),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ServerBandLimitPackets",
                            "The packets each band of a server's egress queue disc holds (the "
                            "host's own queues: the thesis's code had 100 per PfifoFast band); "
                            "0: none of their own, as at the switches (see EgressQueue).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&EgressTopology::m_serverBandLimit),
                            MakeUintegerChecker<uint32_t>());
    return tid;
}

EgressQueue
EgressTopology::MakeEgress() const
{
    EgressQueue egress;
    egress.kind = m_queueKind;
    egress.limitPackets = m_queueDiscLimit;
    egress.ecnThresholdPackets = m_ecnThreshold;
    egress.bandWeights = m_bandWeights;
    return egress;
}

EgressQueue
EgressTopology::MakeServerEgress() const
{
    EgressQueue egress = MakeEgress();
    egress.bandLimitPackets = m_serverBandLimit;
    return egress;
}

uint32_t
EgressTopology::GetDeviceQueuePackets() const
{
    return m_deviceQueuePackets;
}

uint32_t
EgressTopology::GetServerBandLimit() const
{
    return m_serverBandLimit;
}

} // namespace ns3
