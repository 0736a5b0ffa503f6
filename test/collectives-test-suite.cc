/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Collectives over TCP and over the ideal transport, checked against first principles: bytes
 * per worker per allreduce, ideal allreduce time, packet-level vs ideal time, ring sizes and
 * identical output files per seed, parameter
 * servers co-located and dedicated (bytes, shards, time on the server's link, bad layouts).
 */
#include "../model/ddnn-ring.h"
#include "ddnn-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <functional>
#include <sstream>

using namespace ns3;
using namespace ns3::ddnntest;

namespace
{

/**
 * One iteration of two buffers of `s` bytes on servers 0..n-1 of `tor`, with a dedicated
 * parameter server on server n, computing 100 us, its updates distributed as `distribution`
 * says (TrainingJob's Distribution): its applications (workers, then the server) and its job.
 */
std::pair<ApplicationContainer, Ptr<TrainingJob>>
InstallDedicatedServerJob(Ptr<SingleTorHelper> tor,
                          uint32_t n,
                          uint64_t s,
                          const std::string& profileName,
                          const std::string& distribution = "Unicast")
{
    NodeContainer workers;
    for (uint32_t i = 0; i < n; ++i)
    {
        workers.Add(tor->GetServer(i));
    }
    TrainingHelper helper;
    helper.SetAttribute("ProfileFile", StringValue(WriteProfile(profileName, {s, s})));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(s));
    helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
    helper.SetAttribute("Iterations", UintegerValue(1));
    helper.SetAttribute("Collective", StringValue("parameter-server"));
    helper.SetAttribute("ParameterServerHosts", EnumValue(TrainingJob::DEDICATED));
    helper.SetAttribute("Distribution", StringValue(distribution));
    ApplicationContainer apps = helper.Install(workers, NodeContainer(tor->GetServer(n)));
    return {apps, helper.GetJob()};
}

} // namespace

/**
 * \ingroup ddnn-tests
 * Bytes each worker sends per allreduce: 2S - size((r+1)%N) - size((r+2)%N),
 * which is 2(N-1)/N x S when N divides S, on both transports.
 */
class BytesPerAllreduceTestCase : public TestCase
{
  public:
    BytesPerAllreduceTestCase(const std::string& transport, uint32_t workers)
        : TestCase("bytes per worker per allreduce = 2(N-1) x buffer over N, " + transport
                   + ", N=" + std::to_string(workers))
        , m_transport(transport)
        , m_workers(workers)
    {
    }

  private:
    void
    DoRun() override
    {
        // 3 buffers: 240000 (divisible by N), 240001 and 7 bytes (remainders)
        std::string profile = WriteProfile("bytes.csv", {7, 240001, 240000});
        Job j(m_workers, profile, 240001, MilliSeconds(1));
        if (m_transport == "ideal")
        {
            j.UseIdealTransport();
        }
        j.Install();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(j.job->IsFinished(), true, "job finished");
        uint64_t total = 0;
        for (uint32_t r = 0; r < m_workers; ++r)
        {
            uint64_t expected = 0;
            for (uint64_t s : {240000, 240001, 7})
            {
                expected += ddnn_ring_bytes_sent_by(s, m_workers, r);
            }
            uint64_t sent = j.job->GetWorker(r)->GetBytesSent(0);
            NS_TEST_ASSERT_MSG_EQ(sent, expected, "worker " << r);
            total += sent;
        }
        // Over the ring, exactly 2(N-1) x S bytes move per buffer.
        NS_TEST_ASSERT_MSG_EQ(total, 2 * (m_workers - 1) * (240000 + 240001 + 7), "ring total");
        if (240000 % m_workers == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(ddnn_ring_bytes_sent_by(240000, m_workers, 0),
                                  2 * (m_workers - 1) * 240000 / m_workers,
                                  "2(N-1)/N x S exactly when N divides S");
        }
        Simulator::Destroy();
    }

    std::string m_transport;
    uint32_t m_workers;
};

/**
 * \ingroup ddnn-tests
 * Ideal transport alone: its allreduce time is exactly eq. 4.1 plus the step
 * latencies when N divides the buffer.
 */
class IdealAllreduceTimeTestCase : public TestCase
{
  public:
    IdealAllreduceTimeTestCase()
        : TestCase("ideal transport: allreduce time = 2(N-1) x S over N x B + 2(N-1) latencies")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bytes = 8000000;
        Job j(8, WriteProfile("ideal.csv", {bytes}), bytes, MicroSeconds(100));
        j.UseIdealTransport();
        j.helper.SetAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        j.helper.SetAttribute("StepLatency", TimeValue(MicroSeconds(20)));
        j.Install();
        Simulator::Run();
        std::vector<TrainingJob::Record> records = j.job->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1, "one allreduce");
        // 14 steps of 1,000,000 bytes at 10 Gbit/s (800 us) plus 20 us each
        NS_TEST_ASSERT_MSG_EQ(
            records[0].end_ns - records[0].start_ns, 14 * (800000 + 20000), "ideal time in ns");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * A large buffer: the packet-level allreduce takes within 10 % of the ideal
 * 2(N-1)/N x S / goodput + 2(N-1) step latencies. The second of two buffers is
 * measured, once TCP's congestion windows have opened (the first includes
 * slow start on fresh connections).
 */
class PacketVersusIdealTestCase : public TestCase
{
  public:
    PacketVersusIdealTestCase()
        : TestCase("packet-level allreduce of a 4 MB buffer within 10 % of ideal")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bytes = 4000000;
        Job j(4, WriteProfile("large.csv", {bytes, bytes}), bytes, MicroSeconds(100));
        j.Install();
        Simulator::Run();
        std::vector<TrainingJob::Record> records = j.job->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2, "two allreduces");
        Time measured = NanoSeconds(records[1].end_ns - records[1].start_ns);
        Time ideal = j.IdealAllreduce(bytes);
        NS_TEST_ASSERT_MSG_EQ_TOL(measured.GetSeconds(),
                                  ideal.GetSeconds(),
                                  ideal.GetSeconds() * 0.10,
                                  "measured " << measured.As(Time::MS) << ", ideal "
                                              << ideal.As(Time::MS));
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Rings of 2, 3, 8 and 16 workers finish over TCP; the same seed writes
 * byte-identical CSV files.
 */
class RingSizesAndDeterminismTestCase : public TestCase
{
  public:
    RingSizesAndDeterminismTestCase()
        : TestCase("N = 2, 3, 8, 16 finish over TCP; same seed, identical output files")
    {
    }

  private:
    /** The figures of a run. */
    struct RunResult
    {
        TrainingSummary summary;
    };

    /**
     * Two iterations of `n` workers on `profile` in buffers of 40000 bytes, 1 ms of compute,
     * over TCP at seed 1; writes the CSV files into `outDir` unless it is empty.
     */
    static RunResult
    Run(uint32_t n, const std::string& profile, const std::string& outDir)
    {
        RngSeedManager::SetSeed(1);
        Job t(n, profile, 40000, MilliSeconds(1));
        t.helper.SetAttribute("Iterations", UintegerValue(2));
        t.Install();
        TrainingRecorder recorder(t.job);
        Simulator::Run();
        RunResult result{recorder.Summarize(t.idealRate, t.idealStepLatency)};
        if (!outDir.empty())
        {
            recorder.WriteCsv(outDir);
        }
        Simulator::Destroy();
        return result;
    }

    static std::string
    Slurp(const std::string& path)
    {
        std::ifstream in(path);
        std::ostringstream os;
        os << in.rdbuf();
        return os.str();
    }

    void
    DoRun() override
    {
        std::vector<uint64_t> bytes(6, 20000);
        std::string profile = WriteProfile("ring.csv", bytes);
        for (uint32_t n : {2, 3, 8, 16})
        {
            RunResult run = Run(n, profile, "");
            NS_TEST_ASSERT_MSG_EQ(run.summary.iterationsCompleted, 2, "N=" << n);
            NS_TEST_ASSERT_MSG_EQ_TOL(run.summary.bytesPerWorkerPerIteration,
                                      run.summary.expectedBytesPerWorkerPerIteration,
                                      1e-6,
                                      "N=" << n);
        }
        std::string first = SystemPath::MakeTemporaryDirectoryName();
        std::string second = SystemPath::MakeTemporaryDirectoryName();
        SystemPath::MakeDirectories(first);
        SystemPath::MakeDirectories(second);
        Run(3, profile, first);
        Run(3, profile, second);
        for (const char* file : {"iterations.csv", "buffers.csv", "partitions.csv"})
        {
            std::string a = Slurp(first + "/" + file);
            NS_TEST_ASSERT_MSG_GT(a.size(), 50, file << " written");
            NS_TEST_ASSERT_MSG_EQ((a == Slurp(second + "/" + file)), true, file << " identical");
        }
    }
};

/**
 * \ingroup ddnn-tests
 * Parameter servers over TCP, 4 workers, buffers of 240000 bytes (divisible by 4): with one
 * server per worker every worker sends 2(N-1)/N x S per buffer, as in the ring; with a single
 * server (worker 0) it sends the buffer to each of the 3 others and each of them sends it S;
 * every byte sent arrives.
 */
class ParameterServerTestCase : public TestCase
{
  public:
    ParameterServerTestCase(uint32_t servers)
        : TestCase("parameter servers (P=" + std::to_string(servers)
                   + "): push and pull bytes per worker from first principles, tcp")
        , m_servers(servers)
    {
    }

  private:
    void
    DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bufferBytes = 240000;
        std::string profile = WriteProfile("ps.csv", {bufferBytes, bufferBytes});
        Job j(n, profile, bufferBytes, MilliSeconds(1));
        j.helper.SetAttribute("Collective", StringValue("parameter-server"));
        j.helper.SetAttribute("ParameterServers", UintegerValue(m_servers));
        j.Install();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(j.job->IsFinished(), true, "job finished");
        uint64_t sent = 0;
        uint64_t received = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            uint64_t perBuffer = 2 * (n - 1) * bufferBytes / n;
            if (m_servers == 1)
            {
                perBuffer = r == 0 ? (n - 1) * bufferBytes : bufferBytes;
            }
            NS_TEST_ASSERT_MSG_EQ(
                j.job->GetWorker(r)->GetBytesSent(0), 2 * perBuffer, "worker " << r);
            sent += j.job->GetWorker(r)->GetBytesSent(0);
            received += j.job->GetWorker(r)->GetBytesReceived();
        }
        NS_TEST_ASSERT_MSG_EQ(received, sent, "every byte sent arrives");
        Simulator::Destroy();
    }

    uint32_t m_servers;
};

/**
 * \ingroup ddnn-tests
 * One dedicated parameter server (P = 1) for N = 4 workers on a single ToR at 10 Gbit/s, two
 * buffers of S = 1 MB per iteration. Per buffer each worker pushes S and pulls S (2 x model per
 * iteration through its link); the server receives N x S and sends N x S, and its link carries
 * that each way: at least the payload, at most 10 % more (52 header bytes per 1448-byte
 * segment, one 52-byte ACK per segment at most, a short segment per 64 KiB write: 3.6 + 3.6 +
 * 2.2 %). A buffer's collective takes at least N x S x 8 / rate into the server, then as much
 * out (the update leaves only once every push has arrived), and within 5 % of that at TCP's
 * goodput plus the push's and pull's path latencies. The server computes nothing.
 */
class DedicatedParameterServerTestCase : public TestCase
{
  public:
    DedicatedParameterServerTestCase()
        : TestCase("dedicated parameter server P=1: N x S each way on its link, 2 N S at the rate")
    {
    }

  private:
    void
    DoRun() override
    {
        const TransportSettings transport = ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint64_t s = 1000000;
        const double rate = 10e9;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n + 1);
        const auto [apps, job] = InstallDedicatedServerJob(tor, n, s, "dedicated.csv");
        NS_TEST_ASSERT_MSG_EQ(apps.GetN(), n + 1, "N workers and one server");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        const uint64_t model = 2 * s;
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0), model, "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesReceived(), model, "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(
                job->GetExpectedBytesSent(r, s), s, "worker " << r << " pushes the buffer");
        }
        Ptr<ParameterServerHost> server = job->GetParameterServer(0);
        NS_TEST_ASSERT_MSG_EQ(server->GetRank(), n, "the server is rank N");
        NS_TEST_ASSERT_MSG_EQ(server->IsDedicatedServer(), true, "dedicated");
        NS_TEST_ASSERT_MSG_EQ(server->GetIterationsCompleted(), 0, "the server computes nothing");
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(0), n * model, "N x model out of the server");
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesReceived(), n * model, "N x model into it");
        const double payload = n * model;
        const double up = tor->GetServerQueueDisc(n)->GetStats().nTotalSentBytes;
        const double down = tor->GetSwitchQueueDisc(n)->GetStats().nTotalSentBytes;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(up, payload, "the server's uplink carries N x model");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(up, payload * 1.1, "and its headers and ACKs only");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(down, payload, "its downlink carries N x model");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(down, payload * 1.1, "and its headers and ACKs only");
        std::vector<TrainingJob::Record> records = job->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2, "two buffers");
        const double bound = 2.0 * n * s * 8 / rate;
        // Path latency: 2 links' delays and one store-and-forward of a full packet at the
        // switch (as TransportSettings::IdealStepLatency), once for the last push and once for the
        // last pull.
        const double latency = 2 * 10e-6 + transport.WirePacketBytes() * 8 / rate;
        const double ideal = bound / transport.GoodputFraction() + 2 * latency;
        for (const TrainingJob::Record& record : records)
        {
            const double t = (record.end_ns - record.start_ns) * 1e-9;
            // The phases: the pushes converge on the server's downlink (N S), then the pulls
            // leave on its uplink (N S), each at goodput plus one path latency.
            const double push = (record.aggregation_end_ns - record.start_ns) * 1e-9;
            const double pull = (record.end_ns - record.aggregation_end_ns) * 1e-9;
            NS_TEST_ASSERT_MSG_EQ_TOL(push, ideal / 2, ideal * 0.05, "aggregation phase");
            NS_TEST_ASSERT_MSG_EQ_TOL(pull, ideal / 2, ideal * 0.05, "distribution phase");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(t, bound, "buffer " << record.buffer << ": 2 N S / rate");
            NS_TEST_ASSERT_MSG_EQ_TOL(t,
                                      ideal,
                                      ideal * 0.05,
                                      "buffer " << record.buffer << ": " << t * 1e3 << " ms, ideal "
                                                << ideal * 1e3 << " ms");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Network Evolution for DNNs proposed multicast for the distribution phase. The dedicated
 * server of the test above (N = 4, two buffers of S = 1 MB, 10 Gbit/s) with Distribution
 * Multicast: each worker still pulls the whole model, but the server sends each updated
 * shard once (its link carries the model once plus headers and the pushes' ACKs, where
 * unicast carries it N times), and a buffer's distribution phase takes one shard's packets
 * at the link rate (S plus 53 bytes of headers per 1400-byte packet) and a path's latency,
 * within 5 %, where unicast takes N times that.
 */
class MulticastParameterServerTestCase : public TestCase
{
  public:
    MulticastParameterServerTestCase()
        : TestCase("dedicated parameter server, multicast distribution: the update leaves once")
    {
    }

  private:
    void
    DoRun() override
    {
        const TransportSettings transport = ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint64_t s = 1000000;
        const double rate = 10e9;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n + 1);
        const Ptr<TrainingJob> job
            = InstallDedicatedServerJob(tor, n, s, "multicast.csv", "Multicast").second;
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        const uint64_t model = 2 * s;
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0), model, "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesReceived(), model, "worker " << r);
        }
        Ptr<ParameterServerHost> server = job->GetParameterServer(0);
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(0), model, "the model out of the server once");
        NS_TEST_ASSERT_MSG_EQ(job->GetExpectedBytesSent(n, s), s, "a shard once per buffer");
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesReceived(), n * model, "N x model into it");
        const double up = tor->GetServerQueueDisc(n)->GetStats().nTotalSentBytes;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(up, model, "the server's link carries the model");
        NS_TEST_ASSERT_MSG_LT(up, 1.15 * model, "once, with headers and the pushes' ACKs");
        const double packets = std::ceil(s / 1400.0);
        const double latency = 2 * 10e-6 + transport.WirePacketBytes() * 8 / rate;
        const double pull
            = (s + packets * (MulticastHeader::SIZE + 8 + 20 + 2)) * 8 / rate + latency;
        for (const TrainingJob::Record& record : job->GetRecords())
        {
            const double t = (record.end_ns - record.aggregation_end_ns) * 1e-9;
            NS_TEST_ASSERT_MSG_EQ_TOL(t,
                                      pull,
                                      pull * 0.05,
                                      "buffer " << record.buffer << ": distribution " << t * 1e3
                                                << " ms, ideal " << pull * 1e3 << " ms");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Network Evolution for DNNs throttled its parameter server's link: a network-bound
 * parameter-server collective (one dedicated server, N = 4) is paced by that link, so capping
 * it from 1 Gbit/s to 250 Mbit/s makes each phase, and the collective, 4 times as long
 * (within 10 %), while the workers' links stay at 1 Gbit/s.
 */
class ThrottledParameterServerTestCase : public TestCase
{
  public:
    ThrottledParameterServerTestCase()
        : TestCase("parameter server's link capped to a quarter: each phase 4 x as long")
    {
    }

  private:
    /** Mean aggregation and distribution times (s) of the two buffers' collectives. */
    static std::pair<double, double>
    Phases(const std::string& serverRate)
    {
        ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint64_t s = 500000;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        tor->SetAttribute("ImpairedServers", StringValue(std::to_string(n)));
        tor->SetAttribute("RateCap", DataRateValue(DataRate(serverRate)));
        tor->Create(n + 1);
        const Ptr<TrainingJob> job = InstallDedicatedServerJob(tor, n, s, "throttled.csv").second;
        Simulator::Run();
        double push = 0;
        double pull = 0;
        const std::vector<TrainingJob::Record> records = job->GetRecords();
        for (const TrainingJob::Record& record : records)
        {
            push += (record.aggregation_end_ns - record.start_ns) * 1e-9 / records.size();
            pull += (record.end_ns - record.aggregation_end_ns) * 1e-9 / records.size();
        }
        Simulator::Destroy();
        return {push, pull};
    }

    void
    DoRun() override
    {
        const auto [push, pull] = Phases("0bps"); // no cap: 1 Gbit/s
        const auto [throttledPush, throttledPull] = Phases("250Mbps");
        NS_TEST_ASSERT_MSG_EQ_TOL(throttledPush / push, 4, 0.4, "aggregation phase");
        NS_TEST_ASSERT_MSG_EQ_TOL(throttledPull / pull, 4, 0.4, "distribution phase");
    }
};

/**
 * \ingroup ddnn-tests
 * P = 3 dedicated servers for N = 4 workers, buffers of 240001 bytes: shards of 80001, 80000
 * and 80000 bytes. Server k receives and sends exactly N x shard(k) per buffer, the shards the
 * servers hold add up to the buffer exactly, and every worker pushes and pulls the whole
 * buffer, over TCP and over the ideal transport.
 */
class DedicatedShardsTestCase : public TestCase
{
  public:
    DedicatedShardsTestCase(const std::string& transport)
        : TestCase("dedicated parameter servers P=3: shards sum to the model exactly, " + transport)
        , m_transport(transport)
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint32_t p = 3;
        const uint64_t s = 240001;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n + p);
        NodeContainer workers;
        NodeContainer servers;
        for (uint32_t i = 0; i < n + p; ++i)
        {
            (i < p ? servers : workers).Add(tor->GetServer(i)); // servers first: any nodes do
        }
        TrainingHelper helper;
        helper.SetAttribute("ProfileFile", StringValue(WriteProfile("shards.csv", {s, s})));
        helper.SetAttribute("FusionBufferBytes", UintegerValue(s));
        helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
        helper.SetAttribute("Iterations", UintegerValue(2));
        helper.SetAttribute("Collective", StringValue("parameter-server"));
        helper.SetAttribute("ParameterServers", UintegerValue(p));
        helper.SetAttribute("ParameterServerHosts", StringValue("Dedicated"));
        if (m_transport == "ideal")
        {
            helper.SetTransport("ns3::IdealPartitionTransport");
        }
        helper.Install(workers, servers);
        Ptr<TrainingJob> job = helper.GetJob();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_EQ(job->GetRankCount(), n + p, "N + P ranks");
        const uint64_t shards[] = {80001, 80000, 80000};
        uint64_t held = 0;
        for (uint32_t k = 0; k < p; ++k)
        {
            Ptr<ParameterServerHost> server = job->GetParameterServer(k);
            for (uint32_t it = 0; it < 2; ++it)
            {
                NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(it),
                                      2 * n * shards[k],
                                      "server " << k << ", iteration " << it);
            }
            NS_TEST_ASSERT_MSG_EQ(
                server->GetBytesReceived(), 2 * 2 * n * shards[k], "server " << k << " received");
            held += server->GetBytesReceived() / (2 * 2 * n);
        }
        NS_TEST_ASSERT_MSG_EQ(held, s, "the shards add up to the buffer exactly");
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t it = 0; it < 2; ++it)
            {
                NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(it),
                                      2 * s,
                                      "worker " << r << " pushes, iteration " << it);
            }
            NS_TEST_ASSERT_MSG_EQ(
                job->GetWorker(r)->GetBytesReceived(), 2 * 2 * s, "worker " << r << " pulls");
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetIterationsCompleted(), 2, "iterations");
        }
        Simulator::Destroy();
    }

    std::string m_transport;
};

/**
 * \ingroup ddnn-tests
 * Bad parameter-server layouts, each refused with one line naming what is wrong: P = 0, fewer
 * (or more) server nodes than P, a server node that is also a worker or given twice, server
 * nodes with co-located servers, dedicated servers without the parameter-server collective.
 */
class DedicatedLayoutErrorsTestCase : public TestCase
{
  public:
    DedicatedLayoutErrorsTestCase()
        : TestCase("dedicated parameter servers: bad layouts are refused")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(5);
        NodeContainer workers(tor->GetServer(0), tor->GetServer(1), tor->GetServer(2));
        const std::string profile = WriteProfile("layout.csv", {1000, 1000});
        auto helperWith = [&](const std::string& collective, uint32_t servers, bool dedicated) {
            TrainingHelper helper;
            helper.SetAttribute("ProfileFile", StringValue(profile));
            helper.SetAttribute("Collective", StringValue(collective));
            helper.SetAttribute("ParameterServers", UintegerValue(servers));
            helper.SetAttribute("ParameterServerHosts",
                                StringValue(dedicated ? "Dedicated" : "CoLocated"));
            return helper;
        };
        // ErrorOf would destroy the simulator, and the network with it, after the first.
        auto errorOf = [](const std::function<void()>& action) {
            try
            {
                action();
            }
            catch (const DdnnError& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        auto check = [&](const std::string& error, const std::string& expected) {
            NS_TEST_ASSERT_MSG_EQ(error, expected, "the one line");
            NS_TEST_ASSERT_MSG_EQ(error.find('\n'), std::string::npos, "one line");
        };
        check(errorOf([&] { helperWith("parameter-server", 0, true); }),
              "ns3::TrainingJob::ParameterServers: invalid value '0', expected uint32_t 1:250");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServers: expected 2 dedicated parameter-server nodes "
              "(ParameterServerHosts Dedicated), got 1");
        check(errorOf([&] { helperWith("parameter-server", 1, true).Install(workers); }),
              "ns3::TrainingJob::ParameterServers: expected 1 dedicated parameter-server nodes "
              "(ParameterServerHosts Dedicated), got 0");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(3), tor->GetServer(1)));
              }),
              "ns3::TrainingHelper: node " + std::to_string(tor->GetServer(1)->GetId())
                  + " is both worker 1 and dedicated parameter server 1, expected a node of its "
                    "own for each dedicated server");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(4), tor->GetServer(4)));
              }),
              "ns3::TrainingHelper: node " + std::to_string(tor->GetServer(4)->GetId())
                  + " is dedicated parameter server 0 and 1, expected a node of its own for each "
                    "dedicated server");
        check(errorOf([&] {
                  helperWith("parameter-server", 1, false)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServerHosts: 1 parameter-server nodes given, expected "
              "none with CoLocated (the servers run on workers 0..P-1); set Dedicated to use "
              "them");
        check(errorOf([&] {
                  helperWith("ring-allreduce", 1, true)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServerHosts: Dedicated, expected Collective "
              "parameter-server, got 'ring-allreduce'");
        check(errorOf([&] { helperWith("parameter-server", 4, false).Install(workers); }),
              "ns3::TrainingJob::ParameterServers: expected at most the 3 workers, got 4");
        NS_TEST_ASSERT_MSG_EQ(
            tor->GetServer(3)->GetNApplications(), 0, "nothing installed by a refused layout");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the collectives.
 */
class CollectivesTestSuite : public TestSuite
{
  public:
    CollectivesTestSuite()
        : TestSuite("ddnn-collectives", Type::SYSTEM)
    {
        for (uint32_t n : {2, 3, 4, 8})
        {
            AddTestCase(new BytesPerAllreduceTestCase("tcp", n));
            AddTestCase(new BytesPerAllreduceTestCase("ideal", n));
        }
        AddTestCase(new IdealAllreduceTimeTestCase);
        AddTestCase(new PacketVersusIdealTestCase);
        AddTestCase(new RingSizesAndDeterminismTestCase);
        AddTestCase(new ParameterServerTestCase(1));
        AddTestCase(new ParameterServerTestCase(4));
        AddTestCase(new DedicatedParameterServerTestCase);
        AddTestCase(new ThrottledParameterServerTestCase);
        AddTestCase(new MulticastParameterServerTestCase);
        AddTestCase(new DedicatedShardsTestCase("tcp"));
        AddTestCase(new DedicatedShardsTestCase("ideal"));
        AddTestCase(new DedicatedLayoutErrorsTestCase);
    }
};

static CollectivesTestSuite g_collectivesTestSuite; //!< registers the suite
