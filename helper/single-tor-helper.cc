/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "single-tor-helper.h"

#include "../model/ns3-compat.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/integer.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SingleTorHelper");
NS_OBJECT_ENSURE_REGISTERED(SingleTorHelper);
[[maybe_unused]] static const bool g_registered
    = ServerTopology::Register("single-tor", &SingleTorHelper::GetTypeId);

TypeId
SingleTorHelper::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SingleTorHelper")
              .SetParent<EgressTopology>()
              .SetGroupName("Ddnn")
              .AddConstructor<SingleTorHelper>()
              .AddAttribute("Servers",
                            "Servers Create() builds (Create(servers) gives its own count).",
                            UintegerValue(8),
                            MakeUintegerAccessor(&SingleTorHelper::m_serverCount),
                            MakeUintegerChecker<uint32_t>()) // Create checks it
              .AddAttribute("DataRate",
                            "Rate of every server-switch link, both directions.",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&SingleTorHelper::m_dataRate),
                            MakeDataRateChecker())
              .AddAttribute("Delay",
                            "Propagation delay of every link.",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&SingleTorHelper::m_delay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ImpairedServers",
                            "The servers whose links get the impairments (LossRate, AddedDelay, "
                            "RateCap): indices like \"0,3\"; empty: every server.",
                            StringValue(""),
                            MakeStringAccessor(&SingleTorHelper::m_impairedServers),
                            MakeStringChecker())
              .AddAttribute("AddedDelay",
                            "Impairment: propagation delay added to an impaired server's link "
                            "(each way).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&SingleTorHelper::m_addedDelay),
                            MakeTimeChecker(Seconds(0), Seconds(1)))
              .AddAttribute("RateCap",
                            "Impairment: the rate of an impaired server's link, both ways, when "
                            "below DataRate; 0: no cap.",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&SingleTorHelper::m_rateCap),
                            MakeDataRateChecker())
              .AddAttribute("LossRate",
                            "Impairment: fraction of the packets an impaired server's link "
                            "loses, each way: a receive error model on both of its devices.",
                            DoubleValue(0),
                            MakeDoubleAccessor(&SingleTorHelper::m_lossRate),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("LossStream",
                            "First random stream of the loss models (one per device).",
                            IntegerValue(2000),
                            MakeIntegerAccessor(&SingleTorHelper::m_lossStream),
                            MakeIntegerChecker<int64_t>(0))
              .AddAttribute("Ranks",
                            "Processes a distributed run (ns-3's MPI) splits the servers over: "
                            "consecutive blocks of servers, one per rank, the switch on rank 0; "
                            "1: one process.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&SingleTorHelper::m_ranks),
                            MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

SingleTorHelper::SingleTorHelper() = default;

std::vector<bool>
SingleTorHelper::ImpairedServers(uint32_t servers) const
{
    if (m_impairedServers.empty())
    {
        return std::vector<bool>(servers, true);
    }
    std::vector<bool> impaired(servers, false);
    std::stringstream list(m_impairedServers);
    std::string item;
    while (std::getline(list, item, ','))
    {
        char* end = nullptr;
        const unsigned long server = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || item[0] == '-' || *end != '\0' || server >= servers)
        {
            throw DdnnError("ns3::SingleTorHelper::ImpairedServers: expected server indices "
                            "below "
                            + std::to_string(servers) + " like 0,3; got '" + item + "' in '"
                            + m_impairedServers + "'");
        }
        impaired[server] = true;
    }
    return impaired;
}

void
SingleTorHelper::Create(uint32_t servers)
{
    NS_LOG_FUNCTION(this << servers);
    if (servers < 2)
    {
        throw DdnnError("ns3::SingleTorHelper: expected at least 2 servers, got "
                        + std::to_string(servers));
    }
    if (servers > 250)
    {
        throw DdnnError("ns3::SingleTorHelper: at most 250 servers (one 10.1.x.0/24 each), got "
                        + std::to_string(servers));
    }
    CheckConfig(servers);
    NodeContainer nodes;
    for (uint32_t i = 0; i < servers; ++i)
    {
        nodes.Create(1, static_cast<uint32_t>(static_cast<uint64_t>(i) * m_ranks / servers));
    }
    m_switch = CreateObject<Node>(0);

    InternetStackHelper stack;
    stack.Install(nodes);
    stack.Install(m_switch);

    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(m_dataRate));
    link.SetChannelAttribute("Delay", TimeValue(m_delay));
    link.SetQueue("ns3::DropTailQueue<Packet>",
                  "MaxSize",
                  QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, GetDeviceQueuePackets())));

    // The queue disc must be installed before addresses are assigned, else the address helper
    // installs ns-3's default one.
    EgressQueue egress = MakeEgress();
    EgressQueue serverEgress = MakeServerEgress();
    for (EgressQueue* end : {&egress, &serverEgress})
    {
        end->linkRate = m_dataRate;
        end->linkDelay = m_delay;
    }
    TrafficControlHelper queueDisc = egress.Helper();
    TrafficControlHelper serverQueueDisc = serverEgress.Helper();

    const std::vector<bool> impaired = ImpairedServers(servers);
    PointToPointHelper impairedLink = link;
    if (m_rateCap.GetBitRate() > 0 && m_rateCap < m_dataRate)
    {
        impairedLink.SetDeviceAttribute("DataRate", DataRateValue(m_rateCap));
    }
    impairedLink.SetChannelAttribute("Delay", TimeValue(m_delay + m_addedDelay));

    Ipv4AddressHelper addresses;
    for (uint32_t i = 0; i < servers; ++i)
    {
        NetDeviceContainer pair
            = (impaired[i] ? impairedLink : link).Install(nodes.Get(i), m_switch);
        for (uint32_t end = 0; end < 2 && m_lossRate > 0 && impaired[i]; ++end)
        {
            Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
            loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            loss->SetRate(m_lossRate);
            loss->AssignStreams(m_lossStream + 2 * i + end);
            pair.Get(end)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        }
        m_switchDevices.Add(pair.Get(1));
        m_serverQueueDiscs.Add(serverQueueDisc.Install(pair.Get(0)));
        m_switchQueueDiscs.Add(queueDisc.Install(pair.Get(1)));
        EgressQueue::CheckBands(m_switchQueueDiscs.Get(i));
        EgressQueue::CheckBands(m_serverQueueDiscs.Get(i));
        std::ostringstream network;
        network << "10.1." << (i + 1) << ".0";
        addresses.SetBase(network.str().c_str(), "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(pair);
        AppendServer(nodes.Get(i), interfaces.GetAddress(0), pair.Get(0), 0);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

void
SingleTorHelper::Create()
{
    Create(m_serverCount);
}

uint32_t
SingleTorHelper::GetPlannedServerCount() const
{
    return GetServerCount() > 0 ? GetServerCount() : m_serverCount;
}

void
SingleTorHelper::CheckConfig() const
{
    CheckConfig(GetPlannedServerCount());
}

void
SingleTorHelper::CheckConfig(uint32_t servers) const
{
    ImpairedServers(servers);
    if (m_ranks > servers)
    {
        throw DdnnError("ns3::SingleTorHelper::Ranks: " + std::to_string(m_ranks)
                        + " ranks, expected at most the " + std::to_string(servers)
                        + " servers (each rank gets one or more whole servers)");
    }
    if (m_ranks > 1 && m_delay.IsZero())
    {
        // The distributed simulator's lookahead is the delay of the links between ranks.
        throw DdnnError("ns3::SingleTorHelper::Ranks: " + std::to_string(m_ranks)
                        + " ranks, but the links have no delay: expected a Delay above 0 on "
                          "links between ranks");
    }
}

Ptr<Node>
SingleTorHelper::GetSwitch() const
{
    return m_switch;
}

Ptr<NetDevice>
SingleTorHelper::GetSwitchDevice(uint32_t i) const
{
    return m_switchDevices.Get(i);
}

Ptr<QueueDisc>
SingleTorHelper::GetServerQueueDisc(uint32_t i) const
{
    return m_serverQueueDiscs.Get(i);
}

Ptr<QueueDisc>
SingleTorHelper::GetSwitchQueueDisc(uint32_t i) const
{
    return m_switchQueueDiscs.Get(i);
}

DataRate
SingleTorHelper::GetDataRate() const
{
    return m_dataRate;
}

Time
SingleTorHelper::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
