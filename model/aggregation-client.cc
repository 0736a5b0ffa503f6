/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-client.h"

#include "aggregation-header.h"
#include "ddnn-aggregation.h"
#include "ns3-compat.h"
#include "one-line-error.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationClient");
NS_OBJECT_ENSURE_REGISTERED(AggregationClient);

namespace
{

/** Adds one gradient's counts (the C worker's) to `total`. */
void
Add(AggregationClient::Stats& total, const ddnn_agg_worker_stats& s)
{
    total.chunks += s.chunks;
    total.retransmissions += s.retransmissions;
    total.results += s.results;
    total.duplicates += s.duplicates;
    total.bytesReceived += s.bytes;
}

} // namespace

TypeId
AggregationClient::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::AggregationClient")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<AggregationClient>()
              .AddTraceSource("SlotsInUse",
                              "Chunks sent and waiting for their result.",
                              MakeTraceSourceAccessor(&AggregationClient::m_slotsInUse),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("ChunkSent",
                              "A chunk left for the switch (the first time, or again).",
                              MakeTraceSourceAccessor(&AggregationClient::m_chunkSentTrace),
                              "ns3::AggregationClient::ChunkTracedCallback");
    return tid;
}

AggregationClient::AggregationClient() = default;

AggregationClient::~AggregationClient()
{
    ddnn_agg_worker_free(m_machine);
}

void
AggregationClient::DoDispose()
{
    Close();
    m_node = nullptr;
    m_lease = nullptr;
    Object::DoDispose();
}

void
AggregationClient::SetReceiveCallback(ReceiveCallback receive)
{
    m_receive = receive;
}

void
AggregationClient::SetFailureCallback(FailureCallback failure)
{
    m_failure = failure;
}

void
AggregationClient::Setup(Ptr<Node> node,
                         Ptr<const AggregationLease> lease,
                         uint32_t worker,
                         uint16_t port)
{
    NS_LOG_FUNCTION(this << node->GetId() << worker << port);
    m_node = node;
    m_lease = lease;
    m_worker = worker;
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) == -1)
    {
        throw DdnnError("ns3::AggregationClient: UDP port " + std::to_string(port) + " of node "
                        + std::to_string(node->GetId()) + " is taken");
    }
    m_socket->SetRecvCallback(MakeCallback(&AggregationClient::HandleRead, this));
}

void
AggregationClient::SetTos(uint8_t tos)
{
    m_tos = tos;
}

void
AggregationClient::Reduce(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_queue.push_back(bytes);
    if (m_queue.size() == 1)
    {
        StartNext();
    }
}

bool
AggregationClient::Check(int rc, const char* call)
{
    if (rc == DDNN_OK)
    {
        return true;
    }
    const std::string what
        = std::string("in-network aggregation: ") + call + " failed: " + ddnn_strerror(rc);
    Close();
    if (!m_failure.IsNull())
    {
        m_failure(what);
    }
    return false;
}

void
AggregationClient::StartNext()
{
    if (m_queue.empty() || !m_socket)
    {
        return;
    }
    ddnn_agg_worker_config cfg;
    cfg.bytes = m_queue.front();
    cfg.chunk_bytes = m_lease->slotBytes;
    cfg.slots = m_lease->slots;
    cfg.retransmit_ns = m_lease->retransmitTimeout.GetNanoSeconds();
    cfg.srtt_ns = m_srttNs; // the round trips learnt on the gradients before
    cfg.rttvar_ns = m_rttvarNs;
    m_chunks = ddnn_agg_chunks(&cfg);
    // Chunk numbers at the switch are 32 bits: beyond them a late result could be misread.
    if (m_base + m_chunks > UINT32_MAX && !Check(DDNN_ERR_RANGE, "numbering 2^32 chunks"))
    {
        return;
    }
    ddnn_agg_worker_callbacks cb;
    ddnn_agg_worker_callbacks_init(&cb);
    cb.send_chunk = &AggregationClient::SendChunk;
    cb.complete = &AggregationClient::Completed;
    m_completed = false;
    if (!Check(ddnn_agg_worker_new(&m_machine, &cfg, &cb, this), "ddnn_agg_worker_new"))
    {
        return;
    }
    NS_LOG_INFO("worker " << m_worker << ": gradient of " << cfg.bytes << " bytes, chunks "
                          << m_base << ".." << m_base + m_chunks - 1);
    int64_t next;
    if (Check(ddnn_agg_worker_start(m_machine, Simulator::Now().GetNanoSeconds(), &next),
              "ddnn_agg_worker_start"))
    {
        UpdateSlots();
        WakeAt(next);
    }
}

int
AggregationClient::SendChunk(
    void* ctx, uint32_t chunk, uint32_t, uint64_t, uint32_t length, int again)
{
    auto* self = static_cast<AggregationClient*>(ctx);
    AggregationHeader h;
    h.type = AggregationHeader::CONTRIBUTION;
    h.job = self->m_lease->job;
    h.worker = static_cast<uint16_t>(self->m_worker);
    h.chunk = static_cast<uint32_t>(self->m_base + chunk);
    h.slot = h.chunk % self->m_lease->slots;
    h.length = length;
    h.value = self->m_worker + 1;
    Ptr<Packet> packet = Create<Packet>(length);
    packet->AddHeader(h);
    compat::UdpSendToWithTos(self->m_socket,
                             packet,
                             InetSocketAddress(self->m_lease->address, self->m_lease->port),
                             self->m_tos);
    self->m_extra.bytesSent += length;
    self->m_chunkSentTrace(h.chunk, again != 0);
    return DDNN_OK;
}

int
AggregationClient::Completed(void* ctx)
{
    static_cast<AggregationClient*>(ctx)->m_completed = true;
    return DDNN_OK;
}

void
AggregationClient::HandleRead(Ptr<Socket> socket)
{
    const int64_t workers = m_lease->workers;
    while (Ptr<Packet> packet = socket->Recv())
    {
        AggregationHeader h;
        if (packet->GetSize() < AggregationHeader::SIZE)
        {
            continue;
        }
        packet->RemoveHeader(h);
        if (h.type != AggregationHeader::RESULT || h.job != m_lease->job)
        {
            continue;
        }
        if (!m_machine || h.chunk < m_base || h.chunk >= m_base + m_chunks)
        {
            m_extra.duplicates++; // a late copy of an earlier gradient's result
            continue;
        }
        ddnn_agg_worker_stats before;
        ddnn_agg_worker_get_stats(m_machine, &before);
        int64_t next;
        if (!Check(ddnn_agg_worker_on_result(m_machine,
                                             Simulator::Now().GetNanoSeconds(),
                                             static_cast<uint32_t>(h.chunk - m_base),
                                             h.length,
                                             &next),
                   "ddnn_agg_worker_on_result"))
        {
            return;
        }
        ddnn_agg_worker_stats after;
        ddnn_agg_worker_get_stats(m_machine, &after);
        UpdateSlots();
        WakeAt(next);
        if (after.results == before.results)
        {
            continue; // a repeat: the machine counted it
        }
        m_extra.valueSum += h.value;
        m_extra.wrongSums += h.value != workers * (workers + 1) / 2;
        if (m_completed)
        {
            Finish();
        }
        if (!m_receive.IsNull())
        {
            m_receive(h.length); // may queue the next gradient
        }
        if (!m_socket)
        {
            return; // closed by whoever received
        }
    }
}

void
AggregationClient::Finish()
{
    ddnn_agg_worker_stats s;
    ddnn_agg_worker_get_stats(m_machine, &s);
    Add(m_done, s);
    ddnn_agg_worker_get_rtt(m_machine, &m_srttNs, &m_rttvarNs);
    ddnn_agg_worker_free(m_machine);
    m_machine = nullptr;
    m_wake.Cancel();
    m_base += m_chunks;
    m_chunks = 0;
    m_queue.pop_front();
    m_slotsInUse = 0;
    NS_LOG_INFO("worker " << m_worker << ": gradient reduced");
    StartNext();
}

void
AggregationClient::WakeAt(int64_t nextNs)
{
    m_wake.At(m_machine ? nextNs : CoreTimer::NEVER, &AggregationClient::Wake, this);
}

void
AggregationClient::Wake()
{
    int64_t next;
    if (m_machine
        && Check(ddnn_agg_worker_wake(m_machine, Simulator::Now().GetNanoSeconds(), &next),
                 "ddnn_agg_worker_wake"))
    {
        UpdateSlots();
        WakeAt(next);
    }
}

void
AggregationClient::UpdateSlots()
{
    ddnn_agg_worker_stats s;
    ddnn_agg_worker_get_stats(m_machine, &s);
    m_slotsInUse = s.slots_in_use;
    m_extra.maxSlotsInUse = std::max(m_extra.maxSlotsInUse, s.slots_in_use);
}

void
AggregationClient::Close()
{
    m_wake.Cancel();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
}

AggregationClient::Stats
AggregationClient::GetStats() const
{
    Stats total = m_done;
    if (m_machine)
    {
        ddnn_agg_worker_stats s;
        ddnn_agg_worker_get_stats(m_machine, &s);
        Add(total, s);
    }
    total.duplicates += m_extra.duplicates;
    total.bytesSent = m_extra.bytesSent;
    total.valueSum = m_extra.valueSum;
    total.wrongSums = m_extra.wrongSums;
    total.maxSlotsInUse = m_extra.maxSlotsInUse;
    return total;
}

uint32_t
AggregationClient::GetPending() const
{
    return static_cast<uint32_t>(m_queue.size());
}

} // namespace ns3
