/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-rank.h"

#include "ddnn-collective.h"
#include "training-job.h"

#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

static_assert(PartitionTransport::NETWORK_PEER == DDNN_PEER_NETWORK,
              "the transport's network peer is the core's");

NS_LOG_COMPONENT_DEFINE("CollectiveRank");
NS_OBJECT_ENSURE_REGISTERED(CollectiveRank);

TypeId
CollectiveRank::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CollectiveRank")
              .SetParent<Application>()
              .SetGroupName("Ddnn")
              .AddTraceSource(
                  "PartitionSent",
                  "The collective handed a chunk (the ring's: a partition) to the transport.",
                  MakeTraceSourceAccessor(&CollectiveRank::m_partitionSentTrace),
                  "ns3::CollectiveRank::PartitionTracedCallback")
              .AddTraceSource("PartitionReceived",
                              "A chunk (the ring's: a partition) fully arrived.",
                              MakeTraceSourceAccessor(&CollectiveRank::m_partitionReceivedTrace),
                              "ns3::CollectiveRank::PartitionTracedCallback");
    return tid;
}

CollectiveRank::CollectiveRank() = default;

CollectiveRank::~CollectiveRank()
{
    ddnn_collective_free(m_collective);
}

void
CollectiveRank::DoDispose()
{
    m_job = nullptr;
    if (m_transport)
    {
        m_transport->Dispose();
        m_transport = nullptr;
    }
    Application::DoDispose();
}

void
CollectiveRank::Setup(Ptr<TrainingJob> job, uint32_t rank, Ptr<PartitionTransport> transport)
{
    NS_LOG_FUNCTION(this << rank);
    m_job = job;
    m_rank = rank;
    m_transport = transport;
}

uint32_t
CollectiveRank::GetRank() const
{
    return m_rank;
}

bool
CollectiveRank::IsDedicatedServer() const
{
    return m_job && m_rank >= m_job->GetWorkerCount();
}

Ptr<PartitionTransport>
CollectiveRank::GetTransport() const
{
    return m_transport;
}

Ptr<TrainingJob>
CollectiveRank::GetJob() const
{
    return m_job;
}

uint32_t
CollectiveRank::GetIterationsCompleted() const
{
    return 0;
}

uint64_t
CollectiveRank::GetBytesSent(uint32_t iteration) const
{
    return iteration < m_bytesSent.size() ? m_bytesSent[iteration] : 0;
}

std::pair<uint32_t, uint32_t>
CollectiveRank::GetCurrentBuffer() const
{
    return {m_bufferIteration, m_buffer};
}

uint64_t
CollectiveRank::GetBytesReceived() const
{
    return m_bytesReceived;
}

bool
CollectiveRank::Check(int rc, const char* call)
{
    if (rc == DDNN_OK)
    {
        return true;
    }
    m_job->Fail(m_rank, std::string(call) + " failed: " + ddnn_strerror(rc));
    return false;
}

std::vector<PartitionTransport::Peer>
CollectiveRank::Peers(bool sendTo) const
{
    const ddnn_collective_ops* ops = m_job->GetCollective();
    const ddnn_collective_config cfg = m_job->GetCollectiveConfig(m_rank);
    auto list = sendTo ? ops->send_peers : ops->receive_peers;
    std::vector<uint32_t> ranks(list(&cfg, nullptr, 0));
    list(&cfg, ranks.data(), static_cast<uint32_t>(ranks.size()));
    std::vector<PartitionTransport::Peer> peers;
    for (uint32_t r : ranks)
    {
        if (r == DDNN_PEER_NETWORK)
        {
            Ptr<const AggregationLease> lease = m_job->GetAggregationLease();
            peers.push_back({PartitionTransport::NETWORK_PEER,
                             lease ? lease->address : Ipv4Address(),
                             nullptr,
                             lease});
            continue;
        }
        peers.push_back({r, m_job->GetRankAddress(r), m_job->GetRank(r)->GetTransport(), nullptr});
    }
    return peers;
}

bool
CollectiveRank::StartCollective()
{
    NS_LOG_FUNCTION(this << m_rank);
    const ddnn_collective_config cfg = m_job->GetCollectiveConfig(m_rank);
    ddnn_collective_callbacks cb;
    ddnn_collective_callbacks_init(&cb);
    cb.send = &CoreSend;
    cb.send_group = &CoreSendGroup;
    cb.received = &CoreReceived;
    cb.done = &CoreCollectiveDone;
    if (!Check(ddnn_collective_new(&m_collective, m_job->GetCollective(), &cfg, &cb, this),
               "ddnn_collective_new"))
    {
        return false;
    }
    OpenTransport();
    return true;
}

void
CollectiveRank::OpenTransport()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_transport->SetReceiveCallback(MakeCallback(&CollectiveRank::Receive, this));
    m_transport->SetFailureCallback(MakeCallback(&CollectiveRank::TransportFailed, this));
    if (const int tos = m_job->GetPriorityTos(); tos >= 0)
    {
        NS_LOG_INFO("rank " << m_rank << ": priority " << m_job->GetPriority() << ", ToS " << tos);
        m_transport->SetAttributeFailSafe("Tos", UintegerValue(tos)); // a transport with bands
    }
    if (const int ackTos = m_job->GetAckTos(); ackTos >= 0)
    {
        m_transport->SetAttributeFailSafe("AckTos", IntegerValue(ackTos)); // a TCP transport
    }
    if (m_job->GetDistribution() == TrainingJob::MULTICAST && !m_transport->SetMulticast(true))
    {
        m_job->Fail(m_rank,
                    "Distribution Multicast: the transport "
                        + m_transport->GetInstanceTypeId().GetName() + " cannot multicast");
        return;
    }
    m_transport->Open(GetNode(), m_rank, Peers(true), Peers(false));
    m_job->NotifyProgress();
}

void
CollectiveRank::StopApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_jobFinished = true; // a stopped rank no longer reports closed connections
    CloseTransport();
}

void
CollectiveRank::MarkJobFinished()
{
    m_jobFinished = true;
}

void
CollectiveRank::CloseTransport()
{
    if (m_transport)
    {
        m_transport->Close();
    }
}

void
CollectiveRank::TransportFailed(const std::string& what)
{
    NS_LOG_WARN("rank " << m_rank << ": " << what);
    if (!m_jobFinished)
    {
        m_job->Fail(m_rank, what);
    }
}

int
CollectiveRank::StartBuffer(uint32_t iteration, uint32_t buffer, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << m_rank << iteration << buffer << bytes);
    m_bufferIteration = iteration;
    m_buffer = buffer;
    int rc = ddnn_collective_start(m_collective, bytes);
    if (!Check(rc, "ddnn_collective_start"))
    {
        return rc;
    }
    // What peers that started before this rank already sent.
    std::vector<std::pair<uint32_t, uint64_t>> early;
    early.swap(m_early);
    for (const auto& [from, held] : early)
    {
        if (!Check(ddnn_collective_on_received(m_collective, from, held),
                   "ddnn_collective_on_received"))
        {
            return DDNN_ERR_STATE;
        }
    }
    return DDNN_OK;
}

void
CollectiveRank::PrepareSend(uint32_t step, uint32_t chunk, uint64_t bytes)
{
    if (m_bytesSent.size() <= m_bufferIteration)
    {
        m_bytesSent.resize(m_bufferIteration + 1, 0);
    }
    m_bytesSent[m_bufferIteration] += bytes;
    m_partitionSentTrace(m_rank, m_bufferIteration, m_buffer, step, chunk, bytes);
    // Every rank sends a step's chunk at the ToS the job's policy chose for that step.
    m_transport->SetBufferTos(m_job->GetStepTos(m_buffer, step));
}

int
CollectiveRank::CoreSend(void* ctx, uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    auto self = static_cast<CollectiveRank*>(ctx);
    NS_LOG_LOGIC("rank " << self->m_rank << ": buffer " << self->m_buffer << " step " << step
                         << ": partition " << chunk << " (" << bytes << " bytes) sent to " << peer);
    self->PrepareSend(step, chunk, bytes);
    self->m_transport->Send(peer, bytes);
    return DDNN_OK;
}

int
CollectiveRank::CoreSendGroup(
    void* ctx, const uint32_t* peers, uint32_t count, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    auto self = static_cast<CollectiveRank*>(ctx);
    NS_LOG_LOGIC("rank " << self->m_rank << ": buffer " << self->m_buffer << " step " << step
                         << ": partition " << chunk << " (" << bytes
                         << " bytes) sent to a group of " << count);
    self->PrepareSend(step, chunk, bytes); // once: the network makes the copies
    self->m_transport->SendToGroup(std::vector<uint32_t>(peers, peers + count), bytes);
    return DDNN_OK;
}

int
CollectiveRank::CoreReceived(
    void* ctx, [[maybe_unused]] uint32_t peer, uint32_t step, uint32_t chunk, uint64_t bytes)
{
    auto self = static_cast<CollectiveRank*>(ctx);
    NS_LOG_LOGIC("rank " << self->m_rank << ": buffer " << self->m_buffer << " step " << step
                         << ": partition " << chunk << " (" << bytes << " bytes) received from "
                         << peer);
    self->m_partitionReceivedTrace(
        self->m_rank, self->m_bufferIteration, self->m_buffer, step, chunk, bytes);
    if (ddnn_collective_phase_of_step(self->m_collective, step) == DDNN_PHASE_AGGREGATION)
    {
        self->m_job->NotifyAggregationChunk(self->m_bufferIteration, self->m_buffer);
    }
    return DDNN_OK;
}

int
CollectiveRank::CoreCollectiveDone(void* ctx)
{
    auto self = static_cast<CollectiveRank*>(ctx);
    NS_LOG_DEBUG("rank " << self->m_rank << ": done with buffer " << self->m_buffer
                         << " of iteration " << self->m_bufferIteration);
    return self->m_job->NotifyDone(self->m_rank);
}

void
CollectiveRank::Receive(uint32_t from, uint64_t bytes)
{
    m_bytesReceived += bytes;
    m_job->NotifyProgress();
    m_job->NotifyDelivered(bytes);
    if (!ddnn_collective_active(m_collective))
    {
        m_early.emplace_back(from, bytes); // for the buffer this rank has not started yet
        return;
    }
    Check(ddnn_collective_on_received(m_collective, from, bytes), "ddnn_collective_on_received");
}

std::string
CollectiveRank::Describe() const
{
    std::ostringstream os;
    os << DescribeCompute();
    if (m_collective && ddnn_collective_active(m_collective))
    {
        char line[200];
        ddnn_collective_describe(m_collective, line, sizeof line);
        os << "; " << ddnn_collective_get_ops(m_collective)->name << " of buffer " << m_buffer
           << " (iteration " << m_bufferIteration << "): " << line;
    }
    const std::string transport = m_transport ? m_transport->Describe() : "";
    if (!transport.empty())
    {
        os << "; " << transport;
    }
    return os.str();
}

} // namespace ns3
