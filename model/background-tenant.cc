/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-tenant.h"

#include "background-flow-sender.h"
#include "background-flow-sink.h"
#include "ddnn-flow-stats.h"
#include "local-node.h"
#include "ns3-compat.h"
#include "one-line-error.h"
#include "tenant-congestion-control.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundTenant");
NS_OBJECT_ENSURE_REGISTERED(BackgroundTenant);

TypeId
BackgroundTenant::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::BackgroundTenant")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<BackgroundTenant>()
              .AddAttribute("Tos",
                            "IP ToS of every background connection.",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&BackgroundTenant::m_tos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("Priority",
                            "The tenant's priority by name: same (ToS 0x10, every tenant's "
                            "default), low (0x08, PfifoFast band 2), high (0x10, band 0), or "
                            "band0, band1, band2 (PfifoFast's bands). Empty: Tos.",
                            StringValue(""),
                            MakeStringAccessor(&BackgroundTenant::SetPriority,
                                               &BackgroundTenant::GetPriority),
                            MakeStringChecker())
              .AddAttribute("BulkPriority",
                            "The priority of the flows of more than BulkFlowBytes, by name as "
                            "Priority's (e.g. low: below the small flows, beside training at "
                            "low priority), or none: the tenant's, as every other flow. Their "
                            "ACKs keep the tenant's.",
                            StringValue("none"),
                            MakeStringAccessor(&BackgroundTenant::SetBulkPriority,
                                               &BackgroundTenant::GetBulkPriority),
                            MakeStringChecker())
              .AddAttribute("BulkFlowBytes",
                            "The flows of more bytes than this take BulkPriority (100000: the "
                            "medium and large flows of the FCT report).",
                            UintegerValue(DDNN_SMALL_FLOW_MAX_BYTES),
                            MakeUintegerAccessor(&BackgroundTenant::m_bulkFlowBytes),
                            MakeUintegerChecker<uint64_t>(0, 1000000000000000ULL))
              .AddAttribute("PriorityCheck",
                            "At the start of the simulation, when the tenant's ToS (or its ACKs') "
                            "is not the default 0x10 and an egress queue disc on its paths puts "
                            "it in one band with another ToS in use (ns-3's default FqCoDel, a "
                            "FIFO): Warn (one line on stderr), Error (a DdnnError out of "
                            "Simulator::Run) or Off.",
                            EnumValue(TenantPriority::CHECK_WARN),
                            DDNN_ENUM_ACCESSOR(TenantPriority::CheckMode,
                                               &BackgroundTenant::m_priorityCheckMode),
                            TenantPriority::MakeCheckModeChecker())
              .AddAttribute("AcksInDataBand",
                            "Whether the sinks ACK with the flows' ToS (their band); else with "
                            "ToS 0 (PfifoFast band 1), as the thesis's ns-3 code did.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&BackgroundTenant::m_acksInDataBand),
                            MakeBooleanChecker())
              .AddAttribute("Port",
                            "TCP port of the sinks; below ns-3's ephemeral ports (49152 on), so "
                            "that it names the tenant.",
                            UintegerValue(6000),
                            MakeUintegerAccessor(&BackgroundTenant::m_port),
                            MakeUintegerChecker<uint16_t>(1, 49151))
              .AddAttribute("SourcePorts",
                            "How each flow's source port is chosen: Ephemeral (the node's next "
                            "ephemeral port) or FromFlow (10000 + the flow's index modulo "
                            "39152), by which a sink on another process of a distributed run "
                            "knows the flow without asking its sender.",
                            EnumValue(EPHEMERAL),
                            DDNN_ENUM_ACCESSOR(SourcePorts, &BackgroundTenant::m_sourcePorts),
                            MakeEnumChecker(EPHEMERAL, "Ephemeral", FROM_FLOW, "FromFlow"))
              .AddAttribute("SendChunkBytes",
                            "Most bytes a sender writes into a socket at once.",
                            UintegerValue(65536),
                            MakeUintegerAccessor(&BackgroundTenant::m_chunkBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("CongestionControl",
                            "The tenant's own TCP congestion control (a TcpCongestionOps TypeId "
                            "name, e.g. ns3::TcpCubic); empty: the stack's "
                            "(TcpL4Protocol::SocketType).",
                            StringValue(""),
                            MakeStringAccessor(&BackgroundTenant::SetCongestionControl,
                                               &BackgroundTenant::GetCongestionControl),
                            MakeStringChecker())
              .AddAttribute("SlackTags",
                            "Whether every segment of the tenant carries a SlackTag (for a "
                            "LeastSlackQueueDisc): a flow's due at its start plus "
                            "SlackFctMultiple times its ideal transfer time at SlackRate, its "
                            "ACKs with it.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&BackgroundTenant::m_slackTags),
                            MakeBooleanChecker())
              .AddAttribute("SlackFctMultiple",
                            "A flow's slack budget in multiples of its ideal transfer time "
                            "(bytes at SlackRate), in (0, 10^6].",
                            DoubleValue(4),
                            MakeDoubleAccessor(&BackgroundTenant::m_slackFctMultiple),
                            MakeDoubleChecker<double>(1e-9, 1e6))
              .AddAttribute("SlackRate",
                            "The rate of a flow's ideal transfer time (SlackFctMultiple).",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&BackgroundTenant::m_slackRate),
                            MakeDataRateChecker())
              .AddTraceSource("FlowStart",
                              "A flow opened its connection.",
                              MakeTraceSourceAccessor(&BackgroundTenant::m_flowStartTrace),
                              "ns3::BackgroundTenant::FlowStartTracedCallback")
              .AddTraceSource("FlowComplete",
                              "The last byte of a flow reached its sink.",
                              MakeTraceSourceAccessor(&BackgroundTenant::m_flowCompleteTrace),
                              "ns3::BackgroundTenant::FlowCompleteTracedCallback");
    return tid;
}

BackgroundTenant::BackgroundTenant() = default;

void
BackgroundTenant::SetCongestionControl(std::string typeName)
{
    m_congestionControl
        = ValidCongestionControl("ns3::BackgroundTenant::CongestionControl", typeName);
}

std::string
BackgroundTenant::GetCongestionControl() const
{
    return m_congestionControl;
}

bool
BackgroundTenant::GetSlackTags() const
{
    return m_slackTags;
}

int64_t
BackgroundTenant::GetFlowDeadlineNs(uint64_t bytes) const
{
    const double idealNs = static_cast<double>(bytes) * 8e9 / m_slackRate.GetBitRate();
    return Simulator::Now().GetNanoSeconds()
           + static_cast<int64_t>(std::min(m_slackFctMultiple * idealNs, 1e18));
}

void
BackgroundTenant::SetPriority(std::string name)
{
    NS_LOG_FUNCTION(this << name);
    m_priority = TenantPriority::Valid("ns3::BackgroundTenant::Priority", name);
}

std::string
BackgroundTenant::GetPriority() const
{
    return m_priority;
}

void
BackgroundTenant::SetBulkPriority(std::string name)
{
    NS_LOG_FUNCTION(this << name);
    m_bulkPriority = name == "none"
                         ? name
                         : TenantPriority::Valid("ns3::BackgroundTenant::BulkPriority", name);
}

std::string
BackgroundTenant::GetBulkPriority() const
{
    return m_bulkPriority;
}

void
BackgroundTenant::CheckPriority()
{
    TenantPriority::CheckInEvent(
        m_priorityCheck, m_priorityCheckMode, "the background tenant", m_servers, GetTosValues());
}

void
BackgroundTenant::DoDispose()
{
    m_priorityCheck.Cancel();
    m_senders.clear();
    Object::DoDispose();
}

void
BackgroundTenant::Install(NodeContainer servers, const std::vector<ddnn_flow>& flows)
{
    Install(CreateObject<ServerList>(servers), flows);
}

void
BackgroundTenant::Install(Ptr<ServerTopology> servers, const std::vector<ddnn_flow>& flows)
{
    NS_LOG_FUNCTION(this << servers->GetServerCount() << flows.size());
    for (uint32_t i = 0; i < servers->GetServerCount(); ++i)
    {
        Ptr<Node> node = servers->GetServer(i);
        m_servers.Add(node);
        m_addresses.push_back(servers->GetServerAddress(i));
        m_serverOfAddress[m_addresses.back().Get()] = i;
        if (!IsLocalNode(node))
        {
            m_senders.push_back(nullptr); // another process of a distributed run runs them
            continue;
        }
        Ptr<BackgroundFlowSender> sender = CreateObject<BackgroundFlowSender>();
        sender->Setup(this, i);
        m_senders.push_back(sender);
        node->AddApplication(sender);
        Ptr<BackgroundFlowSink> sink = CreateObject<BackgroundFlowSink>();
        sink->Setup(this);
        node->AddApplication(sink);
    }
    m_flows.clear();
    for (const ddnn_flow& f : flows)
    {
        if (f.src >= servers->GetServerCount() || f.dst >= servers->GetServerCount()
            || f.src == f.dst)
        {
            throw DdnnError("ns3::BackgroundTenant: flow " + std::to_string(f.id)
                            + " names a server outside 0.."
                            + std::to_string(servers->GetServerCount() - 1)
                            + " or goes to its own source");
        }
        if (!m_flows.empty() && NanoSeconds(f.start_ns) < m_flows.back().start)
        {
            throw DdnnError("ns3::BackgroundTenant: flows must be sorted by start time");
        }
        Flow flow;
        flow.id = f.id;
        flow.src = f.src;
        flow.dst = f.dst;
        flow.bytes = f.bytes;
        flow.start = NanoSeconds(f.start_ns);
        m_flows.push_back(flow);
    }
    if (!m_flows.empty())
    {
        Simulator::Schedule(m_flows[0].start, &BackgroundTenant::StartFlow, this, 0);
    }
    m_priorityCheck.Cancel();
    m_priorityCheck = Simulator::ScheduleNow(&BackgroundTenant::CheckPriority, this);
}

void
BackgroundTenant::StartFlow(size_t index)
{
    // One pending event at a time: each flow schedules the next one.
    Flow& flow = m_flows[index];
    if (IsLocalNode(m_servers.Get(flow.src))) // else its source's process starts it
    {
        NS_LOG_INFO("flow " << flow.id << " starts: server " << flow.src << " to " << flow.dst
                            << ", " << flow.bytes << " bytes");
        flow.started = true;
        m_flowStartTrace(flow.id, flow.src, flow.dst, flow.bytes);
        m_senders[flow.src]->StartFlow(index, m_addresses[flow.dst], flow.bytes);
    }
    if (index + 1 < m_flows.size())
    {
        Simulator::Schedule(m_flows[index + 1].start - Simulator::Now(),
                            &BackgroundTenant::StartFlow,
                            this,
                            index + 1);
    }
}

const std::vector<BackgroundTenant::Flow>&
BackgroundTenant::GetFlows() const
{
    return m_flows;
}

uint8_t
BackgroundTenant::GetTos() const
{
    return m_priority.empty() ? m_tos
                              : TenantPriority::Tos("ns3::BackgroundTenant::Priority", m_priority);
}

uint8_t
BackgroundTenant::GetFlowTos(uint64_t bytes) const
{
    if (m_bulkPriority == "none" || m_bulkPriority.empty() || bytes <= m_bulkFlowBytes)
    {
        return GetTos();
    }
    return TenantPriority::Tos("ns3::BackgroundTenant::BulkPriority", m_bulkPriority);
}

uint16_t
BackgroundTenant::GetPort() const
{
    return m_port;
}

uint8_t
BackgroundTenant::GetAckTos() const
{
    return m_acksInDataBand ? GetTos() : 0;
}

std::set<uint8_t>
BackgroundTenant::GetTosValues() const
{
    std::set<uint8_t> values{GetTos(), GetAckTos()};
    values.insert(GetFlowTos(m_bulkFlowBytes + 1));
    return values;
}

uint32_t
BackgroundTenant::GetSendChunkBytes() const
{
    return m_chunkBytes;
}

void
BackgroundTenant::RegisterConnection(uint32_t src, uint16_t port, uint64_t flow)
{
    m_flowOfConnection[(static_cast<uint64_t>(src) << 16) | port] = flow;
}

uint16_t
BackgroundTenant::GetSourcePort(uint64_t index) const
{
    return m_sourcePorts == FROM_FLOW ? FIRST_FLOW_PORT + index % FLOW_PORTS : 0;
}

uint64_t
BackgroundTenant::LookupConnection(Ipv4Address from, uint16_t port) const
{
    auto server = m_serverOfAddress.find(from.Get());
    if (server == m_serverOfAddress.end())
    {
        return UINT64_MAX;
    }
    if (m_sourcePorts == FROM_FLOW)
    {
        // The flows of that source on that port that have started: the latest unfinished one
        // (an earlier one on the same port ended FLOW_PORTS flows ago, in any real run).
        uint64_t found = UINT64_MAX;
        for (uint64_t index = port - FIRST_FLOW_PORT;
             port >= FIRST_FLOW_PORT && index < m_flows.size()
             && m_flows[index].start <= Simulator::Now();
             index += FLOW_PORTS)
        {
            const Flow& flow = m_flows[index];
            found = flow.src == server->second && flow.received < flow.bytes ? index : found;
        }
        return found;
    }
    auto flow = m_flowOfConnection.find((static_cast<uint64_t>(server->second) << 16) | port);
    return flow == m_flowOfConnection.end() ? UINT64_MAX : flow->second;
}

void
BackgroundTenant::NotifyReceived(uint64_t index, uint64_t bytes)
{
    Flow& flow = m_flows.at(index);
    flow.received += bytes;
    if (flow.received > flow.bytes)
    {
        throw DdnnError("ns3::BackgroundTenant: flow " + std::to_string(flow.id) + " received "
                        + std::to_string(flow.received) + " of " + std::to_string(flow.bytes)
                        + " bytes");
    }
    if (flow.received == flow.bytes)
    {
        flow.end = Simulator::Now();
        NS_LOG_INFO("flow " << flow.id << " ends: " << flow.bytes << " bytes in "
                            << (flow.end - flow.start).As(Time::US));
        m_flowCompleteTrace(flow.id, flow.bytes, flow.end - flow.start);
    }
}

std::string
BackgroundTenant::GetRankState() const
{
    std::ostringstream os;
    for (size_t index = 0; index < m_flows.size(); ++index)
    {
        const Flow& flow = m_flows[index];
        if (flow.started || flow.received > 0)
        {
            os << index << " " << flow.started << " " << flow.received << " "
               << flow.end.GetTimeStep() << "\n";
        }
    }
    return os.str();
}

void
BackgroundTenant::MergeRankState(const std::string& state)
{
    std::istringstream in(state);
    size_t index = 0;
    bool started = false;
    uint64_t received = 0;
    int64_t end = 0;
    while (in >> index >> started >> received >> end)
    {
        if (index >= m_flows.size() || received > m_flows[index].bytes - m_flows[index].received)
        {
            throw DdnnError("BackgroundTenant::MergeRankState: a state of other flows");
        }
        Flow& flow = m_flows[index];
        flow.started = flow.started || started;
        flow.received += received;
        flow.end = std::max(flow.end, TimeStep(end)); // set where the last byte arrived
    }
    if (!in.eof())
    {
        throw DdnnError("BackgroundTenant::MergeRankState: a truncated state");
    }
}

} // namespace ns3
