/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-recorder.h"

#include "atomic-file.h"

#include "ns3/buffer-priority-policy.h"
#include "ns3/local-node.h"
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
#include <map>
#include <set>
#include <sstream>
#include <tuple>

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

std::vector<double>
TrainingRecorder::BackwardPeriods(uint32_t layers, int64_t fromNs, int64_t untilNs) const
{
    // Each worker's starts of the last layer's backward pass, in order.
    std::map<uint32_t, std::vector<int64_t>> starts;
    for (const LayerRow& l : m_layers)
    {
        if (l.backward && l.layer + 1 == layers)
        {
            starts[l.worker].push_back(l.startNs);
        }
    }
    // The k-th period inside the window of every worker that has one, averaged.
    std::vector<double> sums;
    std::vector<uint32_t> counts;
    for (auto& [worker, times] : starts)
    {
        std::sort(times.begin(), times.end());
        size_t k = 0;
        for (size_t i = 0; i + 1 < times.size(); ++i)
        {
            if (times[i] >= fromNs && times[i] < untilNs)
            {
                if (sums.size() <= k)
                {
                    sums.resize(k + 1, 0);
                    counts.resize(k + 1, 0);
                }
                sums[k] += ToSeconds(times[i + 1] - times[i]);
                ++counts[k++];
            }
        }
    }
    std::vector<double> periods;
    for (size_t k = 0; k < sums.size(); ++k)
    {
        periods.push_back(sums[k] / counts[k]);
    }
    return periods;
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
    if (model->IsChakraTrace())
    {
        s.traceExpectedBytesPerWorkerPerIteration = model->GetChakraExpectedBytesPerWorker();
    }

    // Iterations every worker completed.
    s.iterationsCompleted = UINT32_MAX;
    for (uint32_t r = 0; r < n; ++r)
    {
        s.iterationsCompleted = std::min(s.iterationsCompleted, IterationsCompleted(r));
    }
    double bytes = 0;
    for (uint32_t r = 0; r < n && s.iterationsCompleted > 0; ++r)
    {
        for (uint32_t it = 0; it < s.iterationsCompleted; ++it)
        {
            bytes += BytesSent(r, it);
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
    std::vector<double> starts;
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
            starts.push_back(ToSeconds(m_iterations[0][it].startNs));
        }
    }
    const Spread iterations = SpreadOf(periods);
    s.iterationsMeasured = periods.size();
    s.iterationTimeMeanS = iterations.mean;
    s.iterationTimeSdS = iterations.sd;
    s.iterationTimeMinS = iterations.min;
    s.iterationTimeMaxS = iterations.max;
    s.iterationPeriodsS = std::move(periods);
    s.iterationStartsS = std::move(starts);
    s.backwardPeriodsS = BackwardPeriods(model->GetLayerCount(), fromNs, untilNs);
    s.backwardPeriodSdS = SpreadOf(s.backwardPeriodsS).sd;

    std::vector<double> allreduces;
    std::vector<double> aggregations;
    std::vector<double> distributions;
    for (const auto& record : Records())
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
    s.allreduceTimesS = allreduces;
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
                      ? static_cast<double>(m_job->GetSyncBytes() + m_mergedSyncBytes)
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

uint32_t
TrainingRecorder::IterationsCompleted(uint32_t worker) const
{
    return worker < m_merged.size() && m_merged[worker].merged
               ? m_merged[worker].iterationsCompleted
               : m_job->GetWorker(worker)->GetIterationsCompleted();
}

uint64_t
TrainingRecorder::BytesSent(uint32_t worker, uint32_t iteration) const
{
    if (worker < m_merged.size() && m_merged[worker].merged)
    {
        const auto& sent = m_merged[worker].bytesSent;
        return iteration < sent.size() ? sent[iteration] : 0;
    }
    return m_job->GetWorker(worker)->GetBytesSent(iteration);
}

uint64_t
TrainingRecorder::GetBytesReceived(uint32_t worker) const
{
    return worker < m_merged.size() && m_merged[worker].merged
               ? m_merged[worker].bytesReceived
               : m_job->GetWorker(worker)->GetBytesReceived();
}

std::vector<TrainingJob::Record>
TrainingRecorder::Records() const
{
    std::vector<TrainingJob::Record> records = m_job->GetRecords();
    records.insert(records.end(), m_mergedRecords.begin(), m_mergedRecords.end());
    if (!m_mergedAggregationEnds.empty())
    {
        // The aggregation phase ends with the last chunk any process's ranks received.
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> ends = m_job->GetAggregationEnds();
        for (const auto& [key, ns] : m_mergedAggregationEnds)
        {
            ends[key] = std::max(ends[key], ns);
        }
        for (auto& record : records)
        {
            if (auto found = ends.find({record.iteration, record.buffer}); found != ends.end())
            {
                record.aggregation_end_ns = found->second;
            }
        }
    }
    return records;
}

std::string
TrainingRecorder::GetRankState() const
{
    std::ostringstream os;
    for (uint32_t r = 0; r < m_job->GetWorkerCount(); ++r)
    {
        Ptr<TrainingWorker> worker = m_job->GetWorker(r);
        if (!IsLocalNode(worker->GetNode()))
        {
            continue;
        }
        const uint32_t completed = worker->GetIterationsCompleted();
        os << "worker " << r << " " << completed << " " << worker->GetBytesReceived() << " "
           << m_iterations[r].size();
        for (uint32_t it = 0; it < completed; ++it)
        {
            os << " " << worker->GetBytesSent(it);
        }
        for (const IterationRow& row : m_iterations[r])
        {
            os << " " << row.startNs << " " << row.endNs;
        }
        os << "\n";
    }
    for (const auto& p : m_partitions)
    {
        os << "partition " << p.worker << " " << p.iteration << " " << p.buffer << " " << p.step
           << " " << p.partition << " " << p.bytes << " " << p.event[0] << " " << p.timeNs << "\n";
    }
    for (const auto& l : m_layers)
    {
        os << "layer " << l.worker << " " << l.iteration << " " << l.layer << " " << l.backward
           << " " << l.startNs << " " << l.durationNs << "\n";
    }
    for (const auto& r : m_job->GetRecords())
    {
        os << "record " << r.iteration << " " << r.buffer << " " << r.ready_ns << " " << r.start_ns
           << " " << r.end_ns << " " << r.deadline_ns << " " << r.aggregation_end_ns << "\n";
    }
    for (const auto& [key, ns] : m_job->GetAggregationEnds())
    {
        os << "aggregation " << key.first << " " << key.second << " " << ns << "\n";
    }
    os << "sync " << m_job->GetSyncBytes() << "\n";
    return os.str();
}

void
TrainingRecorder::MergeRankState(const std::string& state)
{
    std::istringstream in(state);
    std::string kind;
    const uint32_t n = m_job->GetWorkerCount();
    m_merged.resize(n);
    const auto bad = [](const std::string& what) {
        return DdnnError("TrainingRecorder::MergeRankState: " + what);
    };
    while (in >> kind)
    {
        if (kind == "worker")
        {
            uint32_t r = 0;
            uint64_t rows = 0;
            MergedWorker w;
            if (!(in >> r >> w.iterationsCompleted >> w.bytesReceived >> rows) || r >= n
                || rows > (1u << 24) || w.iterationsCompleted > rows)
            {
                throw bad("a worker line that does not fit the job's " + std::to_string(n)
                          + " workers");
            }
            w.merged = true;
            w.bytesSent.resize(w.iterationsCompleted);
            for (uint64_t& bytes : w.bytesSent)
            {
                in >> bytes;
            }
            m_iterations[r].resize(rows);
            for (IterationRow& row : m_iterations[r])
            {
                in >> row.startNs >> row.endNs;
            }
            m_merged[r] = std::move(w);
        }
        else if (kind == "partition")
        {
            PartitionRow p{};
            char event = 0;
            in >> p.worker >> p.iteration >> p.buffer >> p.step >> p.partition >> p.bytes >> event
                >> p.timeNs;
            p.event = event == 's' ? "sent" : "received";
            m_partitions.push_back(p);
        }
        else if (kind == "layer")
        {
            LayerRow l{};
            in >> l.worker >> l.iteration >> l.layer >> l.backward >> l.startNs >> l.durationNs;
            m_layers.push_back(l);
        }
        else if (kind == "record")
        {
            TrainingJob::Record r{};
            in >> r.iteration >> r.buffer >> r.ready_ns >> r.start_ns >> r.end_ns >> r.deadline_ns
                >> r.aggregation_end_ns;
            m_mergedRecords.push_back(r);
        }
        else if (kind == "aggregation")
        {
            uint32_t iteration = 0;
            uint32_t buffer = 0;
            uint64_t ns = 0;
            in >> iteration >> buffer >> ns;
            uint64_t& end = m_mergedAggregationEnds[{iteration, buffer}];
            end = std::max(end, ns);
        }
        else if (kind == "sync")
        {
            uint64_t bytes = 0;
            in >> bytes;
            m_mergedSyncBytes += bytes;
        }
        else
        {
            throw bad("unknown line '" + kind + "'");
        }
        if (in.fail())
        {
            throw bad("a truncated '" + kind + "' line");
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
        for (const auto& rec : Records())
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
        // In time order, a worker's rows in their order: the same whatever process ran them.
        std::vector<PartitionRow> partitions = m_partitions;
        std::stable_sort(
            partitions.begin(), partitions.end(), [](const PartitionRow& a, const PartitionRow& b) {
                return std::tie(a.timeNs, a.worker) < std::tie(b.timeNs, b.worker);
            });
        for (const auto& p : partitions)
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
        std::vector<LayerRow> layers = m_layers;
        std::stable_sort(layers.begin(), layers.end(), [](const LayerRow& a, const LayerRow& b) {
            return std::tie(a.startNs, a.worker) < std::tie(b.startNs, b.worker);
        });
        for (const auto& l : layers)
        {
            file.Out() << l.worker << "," << l.iteration << "," << l.layer << ","
                       << (l.backward ? "backward" : "forward") << "," << ToSeconds(l.startNs)
                       << "," << ToSeconds(l.startNs + l.durationNs) << "\n";
        }
        file.Commit();
    }
}

} // namespace ns3
