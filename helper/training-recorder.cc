/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-recorder.h"

#include "atomic-file.h"

#include "ns3/buffer-priority-policy.h"
#include "ns3/one-line-error.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/tcp-partition-transport.h"
#include "ns3/training-worker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>
#include <set>

namespace ns3
{

namespace
{

double
ToSeconds(int64_t ns)
{
    return ns / 1e9;
}

/** Mean, sample standard deviation (NaN below two values), min and max; NaN without values. */
struct Spread
{
    double mean{std::numeric_limits<double>::quiet_NaN()};
    double sd{std::numeric_limits<double>::quiet_NaN()};
    double min{std::numeric_limits<double>::quiet_NaN()};
    double max{std::numeric_limits<double>::quiet_NaN()};
};

Spread
SpreadOf(const std::vector<double>& values)
{
    Spread s;
    if (values.empty())
    {
        return s;
    }
    double sum = 0;
    for (double v : values)
    {
        sum += v;
    }
    s.mean = sum / values.size();
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    if (values.size() >= 2)
    {
        double squares = 0;
        for (double v : values)
        {
            squares += (v - s.mean) * (v - s.mean);
        }
        s.sd = std::sqrt(squares / (values.size() - 1));
    }
    return s;
}

} // namespace

void
WriteKeyValueCsv(const std::string& path,
                 const std::vector<std::pair<std::string, std::string>>& rows)
{
    AtomicFile file(path);
    file.Out() << "key,value\n";
    for (const auto& row : rows)
    {
        file.Out() << row.first << "," << row.second << "\n";
    }
    file.Commit();
}

TrainingRecorder::TrainingRecorder(Ptr<TrainingJob> job)
    : m_job(job)
    , m_iterations(job->GetWorkerCount())
{
    for (uint32_t r = 0; r < job->GetWorkerCount(); ++r)
    {
        Ptr<TrainingWorker> worker = job->GetWorker(r);
        worker->TraceConnectWithoutContext("IterationStart",
                                           MakeCallback(&TrainingRecorder::IterationStart, this));
        worker->TraceConnectWithoutContext("IterationEnd",
                                           MakeCallback(&TrainingRecorder::IterationEnd, this));
        worker->TraceConnectWithoutContext("LayerCompute",
                                           MakeCallback(&TrainingRecorder::LayerCompute, this));
        for (const char* event : {"sent", "received"})
        {
            std::string source = std::string("Partition") + (event[0] == 's' ? "Sent" : "Received");
            worker->TraceConnectWithoutContext(
                source,
                MakeBoundCallback(
                    +[](TrainingRecorder* self,
                        const char* what,
                        uint32_t w,
                        uint32_t it,
                        uint32_t b,
                        uint32_t s,
                        uint32_t p,
                        uint64_t bytes) { self->Partition(what, w, it, b, s, p, bytes); },
                    this,
                    event));
        }
    }
}

void
TrainingRecorder::IterationStart(uint32_t worker, uint32_t iteration)
{
    auto& rows = m_iterations[worker];
    if (rows.size() <= iteration)
    {
        rows.resize(iteration + 1);
    }
    rows[iteration].startNs = Simulator::Now().GetNanoSeconds();
}

void
TrainingRecorder::IterationEnd(uint32_t worker, uint32_t iteration)
{
    m_iterations[worker].at(iteration).endNs = Simulator::Now().GetNanoSeconds();
}

void
TrainingRecorder::LayerCompute(
    uint32_t worker, uint32_t iteration, uint32_t layer, bool backward, Time duration)
{
    m_layers.push_back(LayerRow{worker,
                                iteration,
                                layer,
                                backward,
                                Simulator::Now().GetNanoSeconds(),
                                duration.GetNanoSeconds()});
}

void
TrainingRecorder::Partition(const char* event,
                            uint32_t worker,
                            uint32_t iteration,
                            uint32_t buffer,
                            uint32_t step,
                            uint32_t partition,
                            uint64_t bytes)
{
    m_partitions.push_back(PartitionRow{worker,
                                        iteration,
                                        buffer,
                                        step,
                                        partition,
                                        bytes,
                                        event,
                                        Simulator::Now().GetNanoSeconds()});
}

TrainingSummary
TrainingRecorder::Summarize(DataRate idealRate, Time idealStepLatency, Time from, Time until) const
{
    m_job->ThrowIfFailed(); // a run ended by a failure has no summary
    TrainingSummary s;
    Ptr<DnnModel> model = m_job->GetModel();
    const uint32_t n = m_job->GetWorkerCount();
    s.workers = n;
    s.modelBytes = model->GetTotalBytes();
    s.computeTimeS = model->GetComputeTime().GetSeconds();

    // Iterations every worker completed.
    s.iterationsCompleted = UINT32_MAX;
    for (uint32_t r = 0; r < n; ++r)
    {
        s.iterationsCompleted
            = std::min(s.iterationsCompleted, m_job->GetWorker(r)->GetIterationsCompleted());
    }
    double bytes = 0;
    for (uint32_t r = 0; r < n && s.iterationsCompleted > 0; ++r)
    {
        for (uint32_t it = 0; it < s.iterationsCompleted; ++it)
        {
            bytes += m_job->GetWorker(r)->GetBytesSent(it);
        }
    }
    s.bytesPerWorkerPerIteration = s.iterationsCompleted > 0
                                       ? bytes / n / s.iterationsCompleted
                                       : std::numeric_limits<double>::quiet_NaN();
    // The period of each iteration that starts in the window (see the header): the next
    // iteration's start, else with the barrier its own end; mean over the workers, for the
    // iterations every worker has a period of.
    const int64_t fromNs = from.GetNanoSeconds();
    const int64_t untilNs = until.GetNanoSeconds();
    std::vector<double> periods;
    for (uint32_t it = 0;; ++it)
    {
        double sum = 0;
        bool all = true;
        bool inside = true;
        for (uint32_t r = 0; r < n && all; ++r)
        {
            const auto& rows = m_iterations[r];
            if (it >= rows.size() || rows[it].startNs < 0)
            {
                all = false;
                break;
            }
            const IterationRow& row = rows[it];
            inside = inside && row.startNs >= fromNs && row.startNs < untilNs;
            if (it + 1 < rows.size() && rows[it + 1].startNs >= 0)
            {
                sum += ToSeconds(rows[it + 1].startNs - row.startNs);
            }
            else if (m_job->GetBarrier() && row.endNs >= 0)
            {
                sum += ToSeconds(row.endNs - row.startNs);
            }
            else
            {
                all = false; // no period: the last iteration without the barrier, or unfinished
            }
        }
        if (!all)
        {
            bool later = false; // another worker may still have started iteration it
            for (uint32_t r = 0; r < n; ++r)
            {
                later = later || it < m_iterations[r].size();
            }
            if (!later)
            {
                break;
            }
            continue;
        }
        if (inside)
        {
            periods.push_back(sum / n);
        }
    }
    const Spread iterations = SpreadOf(periods);
    s.iterationsMeasured = periods.size();
    s.iterationTimeMeanS = iterations.mean;
    s.iterationTimeSdS = iterations.sd;
    s.iterationTimeMinS = iterations.min;
    s.iterationTimeMaxS = iterations.max;

    std::vector<double> allreduces;
    std::vector<double> aggregations;
    std::vector<double> distributions;
    for (const auto& record : m_job->GetRecords())
    {
        const int64_t startNs = static_cast<int64_t>(record.start_ns);
        if (record.end_ns > 0 && startNs >= fromNs && startNs < untilNs)
        {
            allreduces.push_back(ToSeconds(record.end_ns - record.start_ns));
            if (record.aggregation_end_ns > 0)
            {
                aggregations.push_back(ToSeconds(record.aggregation_end_ns - record.start_ns));
                distributions.push_back(ToSeconds(record.end_ns - record.aggregation_end_ns));
            }
        }
    }
    const Spread allreduce = SpreadOf(allreduces);
    s.allreducesMeasured = allreduces.size();
    s.allreduceTimeMeanS = allreduce.mean;
    s.allreduceTimeSdS = allreduce.sd;
    const Spread aggregation = SpreadOf(aggregations);
    const Spread distribution = SpreadOf(distributions);
    s.phasesMeasured = aggregations.size();
    s.aggregationTimeMeanS = aggregation.mean;
    s.aggregationTimeSdS = aggregation.sd;
    s.distributionTimeMeanS = distribution.mean;
    s.distributionTimeSdS = distribution.sd;

    for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
    {
        const uint64_t bufferBytes = model->GetBuffer(b).bytes;
        for (uint32_t r = 0; r < n; ++r)
        {
            s.expectedBytesPerWorkerPerIteration
                += static_cast<double>(m_job->GetExpectedBytesSent(r, bufferBytes)) / n;
        }
        s.idealAllreduceTimeS
            += m_job->GetIdealCollectiveTime(bufferBytes, idealRate, idealStepLatency).GetSeconds();
    }
    s.idealAllreduceTimeS /= model->GetBufferCount();
    SummarizeCollective(s);
    return s;
}

void
TrainingRecorder::SummarizeCollective(TrainingSummary& s) const
{
    s.collective = m_job->GetCollectiveName();
    s.fellBack = !m_job->GetFallback().empty();
    s.syncBytes = m_job->GetSyncer() == TrainingJob::NETWORK
                      ? static_cast<double>(m_job->GetSyncBytes())
                      : std::numeric_limits<double>::quiet_NaN();
    Ptr<const AggregationLease> lease = m_job->GetAggregationLease();
    const double na = std::numeric_limits<double>::quiet_NaN();
    s.aggregationRetransmissions = lease ? 0 : na;
    s.aggregationMaxSlotsInUse = lease ? 0 : na;
    s.aggregationSlotMemoryBytes
        = lease ? static_cast<double>(lease->slots) * lease->slotBytes : na;
    for (uint32_t r = 0; lease && r < m_job->GetWorkerCount(); ++r)
    {
        Ptr<TcpPartitionTransport> tcp
            = DynamicCast<TcpPartitionTransport>(m_job->GetWorker(r)->GetTransport());
        if (Ptr<AggregationClient> client = tcp ? tcp->GetAggregationClient() : nullptr)
        {
            const AggregationClient::Stats c = client->GetStats();
            s.aggregationRetransmissions += c.retransmissions;
            s.aggregationMaxSlotsInUse
                = std::max<double>(s.aggregationMaxSlotsInUse, c.maxSlotsInUse);
        }
    }
}

void
TrainingRecorder::WriteCsv(const std::string& dir, const std::string& prefix) const
{
    Ptr<DnnModel> model = m_job->GetModel();
    {
        AtomicFile file(dir + "/" + prefix + "iterations.csv");
        file.Out() << "worker,iteration,start_s,end_s,duration_s\n";
        for (uint32_t r = 0; r < m_iterations.size(); ++r)
        {
            for (uint32_t it = 0; it < m_iterations[r].size(); ++it)
            {
                const IterationRow& row = m_iterations[r][it];
                file.Out() << r << "," << it << "," << ToSeconds(row.startNs) << ",";
                if (row.endNs >= 0)
                {
                    file.Out() << ToSeconds(row.endNs) << "," << ToSeconds(row.endNs - row.startNs);
                }
                else
                {
                    file.Out() << ","; // not completed
                }
                file.Out() << "\n";
            }
        }
        file.Commit();
    }
    {
        AtomicFile file(dir + "/" + prefix + "buffers.csv");
        // With a priority policy, the time each collective spent at each ToS the job uses.
        PointerValue policy;
        m_job->GetAttribute("BufferPriority", policy);
        const bool withPolicy = policy.Get<BufferPriorityPolicy>() != nullptr;
        std::set<uint8_t> tosValues;
        if (withPolicy)
        {
            tosValues = m_job->GetTosValues();
        }
        file.Out() << "iteration,buffer,lowest_layer,highest_layer,bytes,ready_s,start_s,end_s,"
                      "allreduce_s,aggregation_s,distribution_s";
        if (withPolicy)
        {
            file.Out() << ",deadline_s";
        }
        for (uint8_t tos : tosValues)
        {
            file.Out() << ",tos_" << +tos << "_s";
        }
        file.Out() << "\n";
        for (const auto& rec : m_job->GetRecords())
        {
            DnnModel::Buffer buffer = model->GetBuffer(rec.buffer);
            file.Out() << rec.iteration << "," << rec.buffer << "," << buffer.lowestLayer << ","
                       << buffer.highestLayer << "," << buffer.bytes << ","
                       << ToSeconds(rec.ready_ns) << "," << ToSeconds(rec.start_ns) << ",";
            if (rec.end_ns > 0)
            {
                file.Out() << ToSeconds(rec.end_ns) << "," << ToSeconds(rec.end_ns - rec.start_ns);
            }
            else
            {
                file.Out() << ",";
            }
            file.Out() << ",";
            if (rec.end_ns > 0 && rec.aggregation_end_ns > 0) // empty: no phases reported
            {
                file.Out() << ToSeconds(rec.aggregation_end_ns - rec.start_ns) << ","
                           << ToSeconds(rec.end_ns - rec.aggregation_end_ns);
            }
            else
            {
                file.Out() << ",";
            }
            if (withPolicy)
            {
                file.Out() << ",";
                if (rec.end_ns > 0) // recorded when the collective ends
                {
                    file.Out() << ToSeconds(rec.deadline_ns);
                }
            }
            for (uint8_t tos : tosValues)
            {
                file.Out() << ",";
                if (rec.end_ns > 0)
                {
                    auto at = rec.nsAtTos.find(tos);
                    file.Out() << ToSeconds(at == rec.nsAtTos.end() ? 0 : at->second);
                }
            }
            file.Out() << "\n";
        }
        file.Commit();
    }
    {
        AtomicFile file(dir + "/" + prefix + "partitions.csv");
        file.Out() << "worker,iteration,buffer,step,partition,bytes,event,time_s\n";
        for (const auto& p : m_partitions)
        {
            file.Out() << p.worker << "," << p.iteration << "," << p.buffer << "," << p.step << ","
                       << p.partition << "," << p.bytes << "," << p.event << ","
                       << ToSeconds(p.timeNs) << "\n";
        }
        file.Commit();
    }
    {
        AtomicFile file(dir + "/" + prefix + "layers.csv");
        file.Out() << "worker,iteration,layer,pass,start_s,end_s\n";
        for (const auto& l : m_layers)
        {
            file.Out() << l.worker << "," << l.iteration << "," << l.layer << ","
                       << (l.backward ? "backward" : "forward") << "," << ToSeconds(l.startNs)
                       << "," << ToSeconds(l.startNs + l.durationNs) << "\n";
        }
        file.Commit();
    }
}

} // namespace ns3
