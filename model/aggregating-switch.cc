/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregating-switch.h"

#include "aggregation-header.h"
#include "ddnn-aggregation.h"
#include "ns3-compat.h"
#include "one-line-error.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregatingSwitch");
NS_OBJECT_ENSURE_REGISTERED(AggregatingSwitch);

TypeId
AggregatingSwitch::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::AggregatingSwitch")
              .SetParent<Application>()
              .SetGroupName("Ddnn")
              .AddConstructor<AggregatingSwitch>()
              .AddAttribute("MemoryBytes",
                            "Slot memory the switch lends to aggregating jobs, in bytes (SwitchML "
                            "runs in a few MB of a Tofino's SRAM).",
                            UintegerValue(1 << 20),
                            MakeUintegerAccessor(&AggregatingSwitch::m_memoryBytes),
                            MakeUintegerChecker<uint64_t>(1))
              .AddAttribute("Port",
                            "UDP port the workers send their chunks to.",
                            UintegerValue(4790),
                            MakeUintegerAccessor(&AggregatingSwitch::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddTraceSource("MemoryInUse",
                              "Slot memory lent to jobs, in bytes.",
                              MakeTraceSourceAccessor(&AggregatingSwitch::m_memoryInUse),
                              "ns3::TracedValueCallback::Uint64");
    return tid;
}

AggregatingSwitch::AggregatingSwitch() = default;

AggregatingSwitch::~AggregatingSwitch()
{
    ddnn_agg_switch_free(m_switch);
}

void
AggregatingSwitch::DoDispose()
{
    if (m_socket)
    {
        m_socket->Close();
        m_socket = nullptr;
    }
    m_leases.clear();
    Application::DoDispose();
}

Ptr<const AggregationLease>
AggregatingSwitch::Lease(uint32_t workers, uint32_t slots, uint32_t slotBytes, Time timeout)
{
    NS_LOG_FUNCTION(this << workers << slots << slotBytes << timeout);
    if (slotBytes > m_memoryBytes)
    {
        throw DdnnError("ns3::AggregatingSwitch::MemoryBytes: " + std::to_string(m_memoryBytes)
                        + ", expected at least one slot of " + std::to_string(slotBytes)
                        + " bytes (ns3::TrainingJob::AggregationSlotBytes)");
    }
    if (!m_switch)
    {
        ddnn_agg_switch_callbacks cb;
        ddnn_agg_switch_callbacks_init(&cb);
        cb.send_result = &AggregatingSwitch::SendResult;
        if (ddnn_agg_switch_new(&m_switch, m_memoryBytes, &cb, this) != DDNN_OK)
        {
            throw DdnnError("ns3::AggregatingSwitch: out of memory");
        }
    }
    const uint32_t job = static_cast<uint32_t>(m_leases.size());
    const int rc = ddnn_agg_switch_add_job(m_switch, job, workers, slots, slotBytes);
    if (rc == DDNN_ERR_TOO_LARGE)
    {
        NS_LOG_INFO("no room for " << slots << " slots of " << slotBytes << " bytes: "
                                   << ddnn_agg_switch_free_slots(m_switch, slotBytes) << " left");
        return nullptr;
    }
    if (rc != DDNN_OK || timeout.IsStrictlyNegative() || timeout.IsZero())
    {
        throw DdnnError("ns3::AggregatingSwitch: a job of " + std::to_string(workers) + " workers, "
                        + std::to_string(slots) + " slots of " + std::to_string(slotBytes)
                        + " bytes, retransmission after " + std::to_string(timeout.GetSeconds())
                        + " s: expected 2..1024 workers, at most 64 jobs, slots >= 1, "
                          "1..65507 bytes and a positive time");
    }
    Ptr<AggregationLease> lease = Create<AggregationLease>();
    Ptr<Ipv4> ip = GetNode()->GetObject<Ipv4>();
    NS_ABORT_MSG_IF(!ip || ip->GetNInterfaces() < 2, "an aggregating switch needs IPv4 links");
    lease->address = ip->GetAddress(1, 0).GetLocal();
    lease->port = m_port;
    lease->job = static_cast<uint16_t>(job);
    lease->workers = workers;
    lease->slots = slots;
    lease->slotBytes = slotBytes;
    lease->retransmitTimeout = timeout;
    m_leases.push_back(lease);
    m_memoryInUse = GetMemoryInUse();
    m_maxMemoryInUse = std::max<uint64_t>(m_maxMemoryInUse, m_memoryInUse);
    NS_LOG_INFO("job " << job << ": " << slots << " slots of " << slotBytes << " bytes, "
                       << m_memoryInUse << " of " << m_memoryBytes << " bytes lent");
    return lease;
}

uint64_t
AggregatingSwitch::GetMemoryInUse() const
{
    ddnn_agg_switch_stats s{};
    if (m_switch)
    {
        ddnn_agg_switch_get_stats(m_switch, &s);
    }
    return s.memory_bytes;
}

uint64_t
AggregatingSwitch::GetMaxMemoryInUse() const
{
    return m_maxMemoryInUse;
}

uint64_t
AggregatingSwitch::GetMemoryBytes() const
{
    return m_memoryBytes;
}

AggregatingSwitch::Stats
AggregatingSwitch::GetStats() const
{
    ddnn_agg_switch_stats s{};
    if (m_switch)
    {
        ddnn_agg_switch_get_stats(m_switch, &s);
    }
    Stats out;
    out.contributions = s.contributions;
    out.repeats = s.repeats;
    out.stale = s.stale;
    out.results = s.results;
    out.resent = s.resent;
    return out;
}

void
AggregatingSwitch::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) == -1)
    {
        NS_FATAL_ERROR("AggregatingSwitch: cannot bind UDP port " << m_port);
    }
    m_socket->SetIpRecvTos(true); // a result leaves at its chunk's ToS
    m_socket->SetRecvCallback(MakeCallback(&AggregatingSwitch::HandleRead, this));
}

void
AggregatingSwitch::StopApplication()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
AggregatingSwitch::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        AggregationHeader h;
        if (packet->GetSize() < AggregationHeader::SIZE || !m_switch)
        {
            continue;
        }
        packet->RemoveHeader(h);
        if (h.type != AggregationHeader::CONTRIBUTION || h.job >= m_leases.size())
        {
            continue;
        }
        SocketIpTosTag tos;
        m_resultTos = packet->PeekPacketTag(tos) ? tos.GetTos() : 0;
        m_workers.insert_or_assign({h.job, h.worker}, InetSocketAddress::ConvertFrom(from));
        const ddnn_agg_chunk_message contribution{
            h.job, h.worker, h.chunk, h.slot, h.length, h.value};
        const int rc = ddnn_agg_switch_on_contribution(m_switch, &contribution);
        if (rc != DDNN_OK)
        {
            NS_LOG_WARN("contribution refused (" << ddnn_strerror(rc) << "): " << h);
        }
    }
}

int
AggregatingSwitch::SendResult(void* ctx, const ddnn_agg_chunk_message* result)
{
    auto* self = static_cast<AggregatingSwitch*>(ctx);
    AggregationHeader h;
    h.type = AggregationHeader::RESULT;
    h.job = static_cast<uint16_t>(result->job);
    h.chunk = result->chunk;
    h.slot = result->slot;
    h.length = result->length;
    h.value = result->value;
    const uint32_t workers = self->m_leases[result->job]->workers;
    for (uint32_t w = 0; w < workers; ++w)
    {
        if (result->worker != DDNN_AGG_ALL && w != result->worker)
        {
            continue;
        }
        auto it
            = self->m_workers.find({static_cast<uint16_t>(result->job), static_cast<uint16_t>(w)});
        if (it == self->m_workers.end())
        {
            return DDNN_ERR_STATE; // a sum before every worker contributed: cannot be
        }
        h.worker = static_cast<uint16_t>(w);
        Ptr<Packet> packet = Create<Packet>(result->length);
        packet->AddHeader(h);
        self->SendTo(it->second, packet);
    }
    return DDNN_OK;
}

void
AggregatingSwitch::SendTo(const InetSocketAddress& worker, Ptr<Packet> packet)
{
    compat::UdpSendToWithTos(m_socket, packet, worker, m_resultTos);
}

} // namespace ns3
