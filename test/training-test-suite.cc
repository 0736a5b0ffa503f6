/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the training tenant, checked against first principles:
 * bytes per allreduce, compute-bound iteration time, packet-level vs ideal
 * allreduce time, queue policy and barrier on the ideal transport, ring
 * sizes, determinism, bad input and faults.
 */
#include "../model/ddnn-ring.h"
#include "ddnn-test-util.h"

#include "../examples/runner/runner.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

using ddnntest::WriteProfile;

/**
 * The thesis default profile at 1/10 of its bytes: the same shape with ten
 * times fewer packets, while the step latencies stay small next to the
 * transfers (at 1/100 they would not).
 */
std::string
SmallThesisProfile()
{
    return ddnntest::ScaledThesisProfile(10);
}

/** Four workers on the small thesis profile, buffers of at most 533333 bytes. */
TrainingScenario
SmallScenario()
{
    TrainingScenario s;
    s.workers = 4;
    s.profile = SmallThesisProfile();
    s.fusionBytes = 533333;
    return s;
}

/**
 * A job of two 1 MB buffers and 1 ms of compute on `servers`, listening on `port` and sending
 * at `tos`, for `iterations` iterations (tests of several jobs on one network).
 */
Ptr<TrainingJob>
InstallMegabyteJob(Ptr<ServerTopology> servers, uint16_t port, uint8_t tos, uint32_t iterations)
{
    TrainingHelper helper;
    helper.SetAttribute("ProfileFile", StringValue(WriteProfile("job.csv", {1000000, 1000000})));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(1000000));
    helper.SetAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
    helper.SetAttribute("Iterations", UintegerValue(iterations));
    helper.SetAttribute("Port", UintegerValue(port));
    helper.SetAttribute("Tos", UintegerValue(tos));
    helper.Install(servers);
    return helper.GetJob();
}

/** A job on a fresh single-ToR network; Simulator::Destroy() after use. */
struct Job
{
    Ptr<SingleTorHelper> network;
    TrainingHelper helper;
    Ptr<TrainingJob> job;

    Job(uint32_t workers, const std::string& profile, uint64_t fusionBytes, Time compute)
    {
        ddnntest::ApplyTunedTransport();
        network = CreateObject<SingleTorHelper>();
        network->Create(workers);
        helper.SetAttribute("ProfileFile", StringValue(profile));
        helper.SetAttribute("FusionBufferBytes", UintegerValue(fusionBytes));
        helper.SetAttribute("ComputeTime", TimeValue(compute));
        helper.SetAttribute("Iterations", UintegerValue(1));
    }

    /** Partitions over the ideal transport, at the network's goodput and stream latency. */
    void
    UseIdealTransport()
    {
        helper.SetTransport("ns3::IdealPartitionTransport");
        helper.SetAttribute(
            "DataRate",
            DataRateValue(DataRate(static_cast<uint64_t>(
                network->GetDataRate().GetBitRate() * TransportSettings().GoodputFraction()))));
        helper.SetAttribute("StepLatency",
                            TimeValue(IdealStepLatency(
                                network->GetDataRate(), network->GetDelay(), TransportSettings())));
    }

    void
    Install()
    {
        helper.Install(network->GetServers());
        job = helper.GetJob();
    }

    /** Ideal allreduce time of `bytes` (eq. 4.1 at goodput, plus step latencies). */
    Time
    IdealAllreduce(uint64_t bytes) const
    {
        const uint32_t n = network->GetServers().GetN();
        double rate = network->GetDataRate().GetBitRate() * TransportSettings().GoodputFraction();
        return Seconds(2.0 * (n - 1) / n * bytes * 8 / rate)
               + 2 * (n - 1)
                     * IdealStepLatency(
                         network->GetDataRate(), network->GetDelay(), TransportSettings());
    }
};

using ddnntest::ErrorOf;

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
 * Dedicated parameter servers from a scenario's values: 4 workers and P = 2 servers on a
 * single ToR of 6, placed packed (workers on servers 0-3, the parameter servers on 4 and 5);
 * every worker pushes exactly the model and pulls it back, each server moves N x its shard
 * each way, and the shards add up to the model.
 */
class ScenarioParameterServerHostsTestCase : public TestCase
{
  public:
    ScenarioParameterServerHostsTestCase()
        : TestCase("scenario parameter-server-hosts=dedicated: placement and bytes, tcp")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bufferBytes = 240001; // shards of 120001 and 120000
        TrainingScenario s;
        s.workers = 6;
        s.jobWorkers = 4;
        s.profile = WriteProfile("ps-hosts.csv", {bufferBytes});
        s.fusionBytes = bufferBytes;
        s.computeMs = 1;
        s.iterations = 2;
        s.collective = "parameter-server";
        s.parameterServers = 2;
        s.parameterServerHosts = "dedicated";
        s.Validate();
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_EQ(t.job->GetWorkerCount(), 4, "four workers");
        uint64_t shards = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            Ptr<TrainingWorker> server = t.job->GetParameterServer(k);
            NS_TEST_ASSERT_MSG_EQ(server->GetNode(), network->GetServer(4 + k), "after workers");
            const uint64_t shard = k == 0 ? 120001 : 120000;
            // received: over both iterations; sent: in iteration 0
            NS_TEST_ASSERT_MSG_EQ(server->GetBytesReceived(), 2 * 4 * shard, "N x shard in");
            NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(0), 4 * shard, "N x shard out");
            shards += shard;
        }
        NS_TEST_ASSERT_MSG_EQ(shards, bufferBytes, "the shards make the model");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(t.job->GetWorker(r)->GetNode(), network->GetServer(r), "packed");
            NS_TEST_ASSERT_MSG_EQ(t.job->GetWorker(r)->GetBytesSent(0), bufferBytes, "push");
            NS_TEST_ASSERT_MSG_EQ(t.job->GetWorker(r)->GetBytesReceived(), 2 * bufferBytes, "pull");
        }
        Simulator::Destroy();

        // The same job does not fit 5 servers; ring-allreduce has no servers to dedicate.
        s.workers = 5;
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([&] { s.Validate(); }),
                              "--parameterServers: 4 workers and 2 dedicated parameter servers "
                              "do not fit the single-tor's 5 servers",
                              "no room");
        s.workers = 6;
        s.collective = "ring-allreduce";
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([&] { s.Validate(); }),
                              "--parameterServerHosts: dedicated hosts serve the parameter-server "
                              "collective, not ring-allreduce",
                              "ring");
    }
};

/**
 * \ingroup ddnn-tests
 * DCTCP over PrioRed queue discs: the training's own congestion control is DCTCP (at ToS 0,
 * band 1), its queues mark ECN once they reach K packets, DCTCP answers the marks so no packet
 * is dropped, and the ring still delivers its exact bytes. With Cubic (not ECN-capable) the
 * same queues drop at K instead.
 */
class DctcpEcnTestCase : public TestCase
{
  public:
    DctcpEcnTestCase()
        : TestCase("DCTCP on prio-red queues: ECN marks, no drops, exact ring bytes")
    {
    }

  private:
    /** Marks and drops over every egress queue disc after one iteration. */
    static std::pair<uint64_t, uint64_t>
    MarksAndDrops(const std::string& congestionControl, bool* bytesExact)
    {
        TrainingScenario s = SmallScenario();
        s.computeMs = 1;
        s.iterations = 1;
        s.queueDisc = "prio-red";
        s.ecnThresholdPackets = 20;
        s.tos = 0; // ns-3's TCP sends ECT only at ToS 0 (see WarnIfEcnLost)
        s.transportSettings.trainingCongestionControl = congestionControl;
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        Simulator::Run();
        *bytesExact = t.job->IsFinished();
        uint64_t sent = 0;
        uint64_t received = 0;
        for (uint32_t r = 0; r < s.workers; ++r)
        {
            uint64_t expected = 0;
            for (uint32_t b = 0; b < t.job->GetModel()->GetBufferCount(); ++b)
            {
                expected += ddnn_ring_bytes_sent_by(t.job->GetModel()->GetBuffer(b).bytes, 4, r);
            }
            sent += t.job->GetWorker(r)->GetBytesSent(0);
            received += t.job->GetWorker(r)->GetBytesReceived();
            *bytesExact = *bytesExact && t.job->GetWorker(r)->GetBytesSent(0) == expected;
        }
        *bytesExact = *bytesExact && received == sent;
        uint64_t marks = 0;
        uint64_t drops = 0;
        for (uint32_t i = 0; i < s.workers; ++i)
        {
            for (Ptr<QueueDisc> q :
                 {network->GetServerQueueDisc(i), network->GetSwitchQueueDisc(i)})
            {
                marks += q->GetStats().nTotalMarkedPackets;
                drops += q->GetStats().nTotalDroppedPackets;
            }
        }
        Simulator::Destroy();
        return {marks, drops};
    }

    void
    DoRun() override
    {
        bool exact = false;
        const auto [dctcpMarks, dctcpDrops] = MarksAndDrops("Dctcp", &exact);
        NS_TEST_ASSERT_MSG_EQ(exact, true, "DCTCP: every worker sent and received its ring bytes");
        NS_TEST_ASSERT_MSG_GT(dctcpMarks, 0, "DCTCP: the queues marked");
        NS_TEST_ASSERT_MSG_EQ(dctcpDrops, 0, "DCTCP: nothing dropped");
        const auto [cubicMarks, cubicDrops] = MarksAndDrops("Cubic", &exact);
        NS_TEST_ASSERT_MSG_EQ(exact, true, "Cubic: every worker sent and received its ring bytes");
        NS_TEST_ASSERT_MSG_EQ(cubicMarks, 0, "Cubic is not ECN-capable: nothing marked");
        NS_TEST_ASSERT_MSG_GT(cubicDrops, 0, "Cubic: dropped at K instead");
    }
};

/**
 * \ingroup ddnn-tests
 * DCTCP keeps queues short: two 20 MB flows into one server (an incast at the switch). With
 * DCTCP and ECN marking at K = 20 packets, the switch's queue towards the receiver holds on
 * average at most 3 K packets (19 measured); with NewReno on PfifoFast over 10 K (688).
 */
class DctcpQueueTestCase : public TestCase
{
  public:
    DctcpQueueTestCase()
        : TestCase("DCTCP holds an incast queue near K; NewReno fills it")
    {
    }

  private:
    static void
    Sample(Ptr<QueueDisc> queue, double* sum, uint64_t* samples)
    {
        *sum += queue->GetNPackets();
        ++*samples;
        if (Simulator::Now() < MilliSeconds(20))
        {
            Simulator::Schedule(MicroSeconds(10), &DctcpQueueTestCase::Sample, queue, sum, samples);
        }
    }

    /** The mean length of the switch's queue towards server 2, in packets, from 5 to 20 ms. */
    static double
    MeanQueue(bool dctcp)
    {
        TransportSettings transport = ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("QueueDisc",
                              EnumValue(dctcp ? EgressQueue::PRIO_RED : EgressQueue::PFIFO_FAST));
        network->SetAttribute("EcnThresholdPackets", UintegerValue(20));
        network->Create(3);
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetAttribute("Tos", UintegerValue(0)); // ECN needs ToS 0 (WarnIfEcnLost)
        std::vector<ddnn_flow> flows{{0, 0, 2, 20000000, 0}, {1, 1, 2, 20000000, 0}};
        Ptr<BackgroundTenant> tenant = helper->Install(network, flows);
        tenant->SetAttribute("CongestionControl",
                             StringValue(dctcp ? "ns3::TcpDctcp" : "ns3::TcpNewReno"));
        double sum = 0;
        uint64_t samples = 0;
        Simulator::Schedule(MilliSeconds(5),
                            &DctcpQueueTestCase::Sample,
                            network->GetSwitchQueueDisc(2),
                            &sum,
                            &samples);
        Simulator::Stop(MilliSeconds(25));
        Simulator::Run();
        Simulator::Destroy();
        return sum / samples;
    }

    void
    DoRun() override
    {
        const double dctcp = MeanQueue(true);
        const double newReno = MeanQueue(false);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(dctcp, 3 * 20.0, "DCTCP: mean queue " << dctcp);
        NS_TEST_ASSERT_MSG_GT(newReno, 10 * 20.0, "NewReno: mean queue " << newReno);
    }
};

/**
 * \ingroup ddnn-tests
 * Per-buffer priority: a job at ToS 0x08 (band 2) whose buffer holding layer 0 goes at ToS
 * 0x10 (FirstBuffersPriority, Count 1). At worker 0's egress, band 0 carries exactly that
 * buffer's ring bytes (plus their headers: 1448-byte segments in 1500-byte packets, and a
 * handshake), band 2 the rest; every worker still moves its ring bytes.
 */
class BufferPriorityTestCase : public TestCase
{
  public:
    BufferPriorityTestCase()
        : TestCase("per-buffer priority: the layer-0 buffer alone travels in band 0")
    {
    }

  private:
    void
    DoRun() override
    {
        TrainingScenario s = SmallScenario();
        s.computeMs = 1;
        s.iterations = 1;
        s.tos = 0x08;
        s.highPriorityBuffers = 1;
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "job finished");
        Ptr<DnnModel> model = t.job->GetModel();
        const uint32_t last = model->GetBufferCount() - 1; // holds layer 0
        NS_TEST_ASSERT_MSG_EQ(
            model->GetBuffer(last).lowestLayer, 0, "the last buffer holds layer 0");
        uint64_t total = 0;
        for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
        {
            total += ddnn_ring_bytes_sent_by(model->GetBuffer(b).bytes, 4, 0);
        }
        NS_TEST_ASSERT_MSG_EQ(t.job->GetWorker(0)->GetBytesSent(0), total, "ring bytes");
        const double payload = ddnn_ring_bytes_sent_by(model->GetBuffer(last).bytes, 4, 0);
        Ptr<QueueDisc> egress = network->GetServerQueueDisc(0);
        const double band0 = egress->GetInternalQueue(0)->GetTotalReceivedBytes();
        const double band2 = egress->GetInternalQueue(2)->GetTotalReceivedBytes();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(band0, payload, "band 0 holds the layer-0 buffer's bytes");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(
            band0, payload * 1500 / 1448 + 1000, "band 0 holds nothing else");
        NS_TEST_ASSERT_MSG_GT(band2, (total - payload) * 1.0, "band 2 holds the other buffers");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Several jobs on one single-ToR network. On disjoint servers each job's iteration takes what
 * it takes alone, within 1 %. Two jobs on the same four servers (each on its own port) share
 * every server link: each job still moves its exact ring bytes, and a server's uplink carries
 * at least the two jobs' payload together and at most that plus 10 % of headers and ACKs.
 */
class SeveralJobsTestCase : public TestCase
{
  public:
    SeveralJobsTestCase()
        : TestCase("several jobs: disjoint ones run as alone, sharing ones add up on the links")
    {
    }

  private:
    /** From the first collective's start to the last one's end (NaN when none ran). */
    static double
    IterationTime(Ptr<TrainingJob> job)
    {
        std::vector<TrainingJob::Record> records = job->GetRecords();
        return records.empty() ? std::nan("")
                               : (records.back().end_ns - records.front().start_ns) * 1e-9;
    }

    static void
    CountBytes(uint64_t* bytes, Ptr<const Packet> packet)
    {
        *bytes += packet->GetSize();
    }

    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> alone = CreateObject<SingleTorHelper>();
        alone->Create(8);
        Ptr<TrainingJob> single = InstallMegabyteJob(PlaceJob(alone, "0,1,2,3", 4), 5000, 0x10, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(single->IsFinished(), true, "the job alone finished");
        const double aloneTime = IterationTime(single);
        Simulator::Destroy();

        Ptr<SingleTorHelper> both = CreateObject<SingleTorHelper>();
        both->Create(8);
        Ptr<TrainingJob> a = InstallMegabyteJob(PlaceJob(both, "0,1,2,3", 4), 5000, 0x10, 2);
        Ptr<TrainingJob> b = InstallMegabyteJob(PlaceJob(both, "4,5,6,7", 4), 5000, 0x10, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(IterationTime(a), aloneTime, aloneTime * 0.01, "job a");
        NS_TEST_ASSERT_MSG_EQ_TOL(IterationTime(b), aloneTime, aloneTime * 0.01, "job b");
        Simulator::Destroy();

        Ptr<SingleTorHelper> shared = CreateObject<SingleTorHelper>();
        shared->Create(4);
        uint64_t uplinkBytes = 0;
        shared->GetServerDevice(0)->TraceConnectWithoutContext(
            "PhyTxEnd", MakeBoundCallback(&SeveralJobsTestCase::CountBytes, &uplinkBytes));
        Ptr<TrainingJob> first = InstallMegabyteJob(shared, 5000, 0x10, 2);
        Ptr<TrainingJob> second = InstallMegabyteJob(shared, 5001, 0x10, 2);
        Simulator::Run();
        uint64_t payload = 0;
        for (Ptr<TrainingJob> job : {first, second})
        {
            NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
            uint64_t sent = 0;
            uint64_t received = 0;
            for (uint32_t r = 0; r < 4; ++r)
            {
                const uint64_t expected = 2 * 2 * job->GetExpectedBytesSent(r, 1000000);
                NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0)
                                          + job->GetWorker(r)->GetBytesSent(1),
                                      expected,
                                      "worker " << r);
                sent += expected;
                received += job->GetWorker(r)->GetBytesReceived();
            }
            NS_TEST_ASSERT_MSG_EQ(received, sent, "none lost");
            payload += 2 * 2 * job->GetExpectedBytesSent(0, 1000000);
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(uplinkBytes, payload, "both jobs' payload crosses the link");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(uplinkBytes, payload * 1.1, "and only headers and ACKs more");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Four bands for more tenants (prio4): two identical jobs on the same servers, one at ToS
 * 0x18 (band 1), one at 0x08 (band 3). At a server's egress each job's bytes, data and ACKs,
 * are in its own band only, and strict priority lets the band-1 job finish first.
 */
class FourBandsTestCase : public TestCase
{
  public:
    FourBandsTestCase()
        : TestCase("prio4: each job in its own band, the higher band finishes first")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("QueueDisc", EnumValue(EgressQueue::PRIO4));
        network->Create(4);
        Ptr<TrainingJob> high = InstallMegabyteJob(network, 5000, 0x18, 1);
        Ptr<TrainingJob> low = InstallMegabyteJob(network, 5001, 0x08, 1);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(high->IsFinished() && low->IsFinished(), true, "both finished");
        Ptr<QueueDisc> egress = network->GetServerQueueDisc(0);
        NS_TEST_ASSERT_MSG_EQ(egress->GetNQueueDiscClasses(), 4, "four bands");
        std::vector<uint64_t> bytes;
        for (uint32_t band = 0; band < 4; ++band)
        {
            bytes.push_back(
                egress->GetQueueDiscClass(band)->GetQueueDisc()->GetStats().nTotalReceivedBytes);
        }
        const uint64_t payload = high->GetWorker(0)->GetBytesSent(0);
        NS_TEST_ASSERT_MSG_EQ(bytes[0] + bytes[2], 0, "bands 0 and 2 unused");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(bytes[1], payload, "the ToS 0x18 job in band 1");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(bytes[3], payload, "the ToS 0x08 job in band 3");
        const uint64_t highEnd = high->GetRecords().back().end_ns;
        const uint64_t lowEnd = low->GetRecords().back().end_ns;
        NS_TEST_ASSERT_MSG_LT(highEnd, lowEnd, "strict priority: band 1 first");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Impairments of delay and rate: an added delay d on every server link makes each of a ring's
 * 2(N-1) steps cross two links that much longer, so a latency-bound allreduce (partitions of
 * one segment) takes 2(N-1) x 2d more, within 5 %. A rate cap C on one server's link makes a
 * bandwidth-bound allreduce take 2(N-1)/N x S at C's goodput, within 10 %, and never less.
 */
class DelayAndRateImpairmentTestCase : public TestCase
{
  public:
    DelayAndRateImpairmentTestCase()
        : TestCase("impairments: added delay adds 2(N-1) x 2d, a rate cap sets the pace")
    {
    }

  private:
    /** The second allreduce of a 4-worker ring of buffers of `bytes`. */
    static double
    Allreduce(uint64_t bytes, double addedDelayUs, const std::string& rateCap)
    {
        TrainingScenario s;
        s.workers = 4;
        s.profile = WriteProfile("impaired.csv", {bytes, bytes});
        s.fusionBytes = bytes;
        s.computeMs = 0.1;
        s.iterations = 1;
        s.addedDelayUs = addedDelayUs;
        s.rateCap = rateCap;
        s.impairedServers = rateCap.empty() ? "" : "1";
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        Simulator::Run();
        std::vector<TrainingJob::Record> records = t.job->GetRecords();
        const double seconds = records.size() == 2 && records[1].end_ns > 0
                                   ? (records[1].end_ns - records[1].start_ns) * 1e-9
                                   : -1;
        Simulator::Destroy();
        return seconds;
    }

    void
    DoRun() override
    {
        const uint32_t n = 4;
        const double d = 100e-6;
        const double plain = Allreduce(4000, 0, "");
        const double delayed = Allreduce(4000, d * 1e6, "");
        const double expected = 2 * (n - 1) * 2 * d;
        NS_TEST_ASSERT_MSG_EQ_TOL(delayed - plain,
                                  expected,
                                  expected * 0.05,
                                  "plain " << plain << " s, delayed " << delayed << " s");

        const uint64_t bytes = 4000000;
        const double capped = Allreduce(bytes, 0, "1Gbps");
        const double payload = 2.0 * (n - 1) / n * bytes * 8;
        const double atCap = payload / (1e9 * TransportSettings().GoodputFraction());
        NS_TEST_ASSERT_MSG_GT_OR_EQ(capped, payload / 1e9, "never faster than the cap");
        NS_TEST_ASSERT_MSG_EQ_TOL(capped, atCap, atCap * 0.10, "capped " << capped << " s");
    }
};

/**
 * \ingroup ddnn-tests
 * Compute-bound job (R_cp_to_nw = 16, eq. 5.1) alone on the network: the
 * iteration time equals the compute time within 1 %.
 */
class ComputeBoundTestCase : public TestCase
{
  public:
    ComputeBoundTestCase()
        : TestCase("compute-bound (rcp 16) iteration time = compute time within 1 %, tcp")
    {
    }

  private:
    void
    DoRun() override
    {
        TrainingScenario s = SmallScenario();
        s.rcp = 16;
        s.iterations = 2;
        TrainingRunResult run = RunTraining(s, "");
        NS_TEST_ASSERT_MSG_EQ(run.summary.iterationsCompleted, 2, "iterations");
        // eq. 5.1: compute = rcp x model x 2(1 - 1/N) x 8 / rate
        NS_TEST_ASSERT_MSG_EQ(run.modelBytes, 25 * 44444 + 13 * 177777 + 12 * 533332, "model");
        double expected = 16 * run.modelBytes * 2 * 0.75 * 8 / 10e9;
        NS_TEST_ASSERT_MSG_EQ_TOL(run.summary.computeTimeS, expected, expected * 1e-3, "eq. 5.1");
        NS_TEST_ASSERT_MSG_EQ_TOL(run.summary.iterationTimeMeanS,
                                  run.summary.computeTimeS,
                                  run.summary.computeTimeS * 0.01,
                                  "iteration time");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(
            run.summary.iterationTimeMeanS, run.summary.computeTimeS, "never faster than compute");
    }
};

/**
 * \ingroup ddnn-tests
 * The iteration period's estimator: the iterations that start in the window count, wherever
 * they end. A compute-bound job on the ideal transport with the barrier iterates every
 * compute time C plus the last buffer's allreduce A (the next forward waits for it): in the
 * window [1.5 P, 3.5 P) of that period P start iterations 2 and 3 (0-based), the third ending
 * after the window; both count (a window requiring their end would keep one), each with the
 * period P, and nothing varies: a standard deviation near 0 and min = max.
 */
class WindowEstimatorTestCase : public TestCase
{
  public:
    WindowEstimatorTestCase()
        : TestCase("iterations that start in the window count, also those ending after it")
    {
    }

  private:
    void
    DoRun() override
    {
        TrainingScenario s = SmallScenario();
        s.rcp = 16;
        s.iterations = 6;
        s.transport = "ideal";
        s.barrier = true;
        s.Validate();
        RngSeedManager::SetSeed(1);
        InstalledTraining t = InstallTraining(s, CreateNetwork(s, s.workers));
        TrainingRecorder recorder(t.job);
        Simulator::Run();
        // P from first principles: C plus the ideal allreduce of the buffer holding layer 0.
        Ptr<DnnModel> model = t.job->GetModel();
        const Time last = t.job->GetIdealCollectiveTime(
            model->GetBuffer(model->GetBufferOfLayer(0)).bytes, t.idealRate, t.idealStepLatency);
        const double period = (model->GetComputeTime() + last).GetSeconds();
        const TrainingSummary w = recorder.Summarize(
            t.idealRate, t.idealStepLatency, Seconds(1.5 * period), Seconds(3.5 * period));
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(
            w.iterationsMeasured, 2, "starts at 2 P and 3 P; the second ends at 4 P");
        NS_TEST_ASSERT_MSG_EQ_TOL(w.iterationTimeMeanS, period, period * 0.01, "the period P");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            w.iterationTimeMinS, w.iterationTimeMaxS, period * 0.01, "min = max");
        NS_TEST_ASSERT_MSG_LT(w.iterationTimeSdS, period * 0.01, "no spread");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(
            w.allreducesMeasured, model->GetBufferCount(), "iteration 2's allreduces");
    }
};

/**
 * \ingroup ddnn-tests
 * A straggler (the scenario's stragglers and straggler-scale): one worker computing 1.5 x as
 * long makes a compute-bound job iterate in 1.5 x its compute time within 1 % (everyone waits
 * for its gradients). A jitter j drawn per worker and iteration from U(0, 0.2) makes the
 * period, with the barrier, the expected maximum of N draws: 1 + 0.2 N / (N + 1); it repeats
 * with the seed and changes with it.
 */
class StragglerTestCase : public TestCase
{
  public:
    StragglerTestCase()
        : TestCase("a straggler at 1.5 x compute makes a compute-bound iteration 1.5 x long")
    {
    }

  private:
    /** Mean iteration period over the compute time, worker 0 slowed by `scale`. */
    static double
    Period(double scale, const std::string& jitter, uint32_t iterations = 3, uint32_t seed = 1)
    {
        TrainingScenario s = SmallScenario();
        s.rcp = 16;
        s.iterations = iterations;
        s.transport = "ideal";
        s.stragglers = scale != 1.0 ? "0" : "";
        s.stragglerScale = scale;
        s.jitter = jitter;
        s.Validate();
        RngSeedManager::SetSeed(seed);
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        TrainingRecorder recorder(t.job);
        Simulator::Run();
        const double period = recorder.Summarize(t.idealRate, t.idealStepLatency).iterationTimeMeanS
                              / t.job->GetModel()->GetComputeTime().GetSeconds();
        Simulator::Destroy();
        return period;
    }

    void
    DoRun() override
    {
        const double alone = Period(1.0, "");
        const double straggler = Period(1.5, "");
        NS_TEST_ASSERT_MSG_EQ_TOL(alone, 1.0, 0.01, "no straggler: the compute time");
        NS_TEST_ASSERT_MSG_EQ_TOL(straggler, 1.5, 0.015, "straggler: 1.5 x the compute time");
        // 40 iterations: the mean of the maximum of 4 draws has a standard deviation of
        // 0.2 x sqrt(N / ((N + 1)^2 (N + 2))) / sqrt(40) = 0.0052; allow 3 of them and 1 % for
        // the allreduce's tail.
        const std::string uniform = "ns3::UniformRandomVariable[Min=0|Max=0.2]";
        const double jittered = Period(1.0, uniform, 40);
        NS_TEST_ASSERT_MSG_EQ_TOL(jittered, 1.0 + 0.2 * 4 / 5, 0.016 + 0.01, "E[max of 4]");
        NS_TEST_ASSERT_MSG_EQ(Period(1.0, uniform, 40), jittered, "same seed, same times");
        NS_TEST_ASSERT_MSG_NE(Period(1.0, uniform, 40, 2), jittered, "another seed, other times");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] { Period(1.0, "ns3::Nothing[Mean=1]"); }),
                              "--jitter: expected an ns-3 random variable such as "
                              "ns3::NormalRandomVariable[Mean=0|Variance=0.0025], got "
                              "'ns3::Nothing[Mean=1]'",
                              "unknown type");
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] { Period(1.0, "ns3::UniformRandomVariable[Mean=1]"); }),
            "--jitter: expected an ns-3 random variable such as "
            "ns3::NormalRandomVariable[Mean=0|Variance=0.0025], whose attributes "
            "ns3::UniformRandomVariable has, got 'ns3::UniformRandomVariable[Mean=1]'",
            "unknown attribute");
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] { Period(1.0, "ns3::UniformRandomVariable[Min=x]"); }),
            "--jitter: expected an ns-3 random variable such as "
            "ns3::NormalRandomVariable[Mean=0|Variance=0.0025], with a valid Min, got "
            "'ns3::UniformRandomVariable[Min=x]'",
            "bad value");
        RngSeedManager::SetSeed(1); // as the other tests expect
    }
};

/**
 * \ingroup ddnn-tests
 * The per-layer trace: each iteration computes forward 0..L-1 then backward L-1..0, and the
 * durations add up to the compute time (1.5 x it on a straggler), within a nanosecond per
 * layer of rounding.
 */
class LayerComputeTraceTestCase : public TestCase
{
  public:
    LayerComputeTraceTestCase()
        : TestCase("LayerCompute: layers in order, durations add up to the compute time")
    {
    }

  private:
    struct Task
    {
        uint32_t iteration;
        uint32_t layer;
        bool backward;
        Time duration;
    };

    static void
    Record(std::vector<std::vector<Task>>* tasks,
           uint32_t worker,
           uint32_t iteration,
           uint32_t layer,
           bool backward,
           Time duration)
    {
        (*tasks)[worker].push_back({iteration, layer, backward, duration});
    }

    void
    DoRun() override
    {
        TrainingScenario s;
        s.workers = 2;
        s.profile = SmallThesisProfile();
        s.fusionBytes = 533333;
        s.rcp = 16;
        s.iterations = 2;
        s.transport = "ideal";
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        t.job->GetWorker(1)->SetAttribute("ComputeScale", DoubleValue(1.5));
        std::vector<std::vector<Task>> tasks(s.workers);
        for (uint32_t r = 0; r < s.workers; ++r)
        {
            t.job->GetWorker(r)->TraceConnectWithoutContext(
                "LayerCompute", MakeBoundCallback(&LayerComputeTraceTestCase::Record, &tasks));
        }
        Simulator::Run();
        Simulator::Destroy();
        const uint32_t layers = t.job->GetModel()->GetLayerCount();
        const int64_t compute = t.job->GetModel()->GetComputeTime().GetNanoSeconds();
        for (uint32_t r = 0; r < s.workers; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(tasks[r].size(), 2 * 2 * layers, "tasks of worker " << r);
            for (uint32_t it = 0; it < 2; ++it)
            {
                int64_t total = 0;
                for (uint32_t k = 0; k < 2 * layers; ++k)
                {
                    const Task& task = tasks[r][it * 2 * layers + k];
                    const bool backward = k >= layers;
                    NS_TEST_ASSERT_MSG_EQ(task.iteration, it, "iteration");
                    NS_TEST_ASSERT_MSG_EQ(task.backward, backward, "pass of task " << k);
                    const uint32_t layer = backward ? 2 * layers - 1 - k : k;
                    NS_TEST_ASSERT_MSG_EQ(task.layer, layer, "layer of task " << k);
                    total += task.duration.GetNanoSeconds();
                }
                const double expected = compute * (r == 1 ? 1.5 : 1.0);
                NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(total),
                                          expected,
                                          2.0 * layers,
                                          "compute of worker " << r << ", iteration " << it);
            }
        }
    }
};

/**
 * \ingroup ddnn-tests
 * An impairment: with loss rate p on every server link, the links lose p of the packets
 * they carry (within 4 binomial standard deviations), TCP resends them, and every worker
 * still receives exactly its ring bytes.
 */
class LossImpairmentTestCase : public TestCase
{
  public:
    LossImpairmentTestCase()
        : TestCase("loss rate p: the links lose p of the packets, the ring still completes")
    {
    }

  private:
    static void
    Count(uint64_t* counter, Ptr<const Packet>)
    {
        ++*counter;
    }

    void
    DoRun() override
    {
        const double p = 0.01;
        TrainingScenario s = SmallScenario();
        s.computeMs = 1;
        s.iterations = 1;
        s.lossRate = p;
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining t = InstallTraining(s, network);
        uint64_t received = 0;
        uint64_t lost = 0;
        for (uint32_t i = 0; i < s.workers; ++i)
        {
            for (Ptr<NetDevice> device : {network->GetServerDevice(i), network->GetSwitchDevice(i)})
            {
                device->TraceConnectWithoutContext("PhyRxEnd",
                                                   MakeBoundCallback(&Count, &received));
                device->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&Count, &lost));
            }
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "the job finished despite the loss");
        const uint32_t n = s.workers;
        for (uint32_t r = 0; r < n; ++r)
        {
            uint64_t expected = 0;
            for (uint32_t b = 0; b < t.job->GetModel()->GetBufferCount(); ++b)
            {
                expected += ddnn_ring_bytes_sent_by(t.job->GetModel()->GetBuffer(b).bytes, n, r);
            }
            NS_TEST_ASSERT_MSG_EQ(t.job->GetWorker(r)->GetBytesSent(0), expected, "worker " << r);
        }
        // Every packet that arrived at a device was kept (PhyRxEnd) or lost (PhyRxDrop).
        const double arrived = received + lost;
        const double sigma = std::sqrt(arrived * p * (1 - p));
        NS_TEST_ASSERT_MSG_GT(arrived, 10000, "enough packets for the statistics");
        NS_TEST_ASSERT_MSG_EQ_TOL(lost, arrived * p, 4 * sigma, "lost packets = p x arrived");
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
 * Thesis ch. 4 on the ideal transport without the barrier: priority beats
 * FIFO when the job is network-bound and changes nothing when compute-bound.
 */
class PriorityVersusFifoTestCase : public TestCase
{
  public:
    PriorityVersusFifoTestCase()
        : TestCase("ideal: priority beats FIFO only when network-bound (barrier off)")
    {
    }

  private:
    static double
    IterationTime(double rcp, const std::string& queue)
    {
        TrainingScenario s;
        s.transport = "ideal";
        s.rcp = rcp;
        s.queue = queue;
        s.barrier = false;
        s.iterations = 4;
        return RunTraining(s, "").summary.iterationTimeMeanS;
    }

    void
    DoRun() override
    {
        double fifoBound = IterationTime(0.5, "fifo");
        double priorityBound = IterationTime(0.5, "priority");
        NS_TEST_ASSERT_MSG_LT(priorityBound,
                              fifoBound * 0.98,
                              "network-bound: priority " << priorityBound << " s, fifo "
                                                         << fifoBound << " s");
        double fifoCompute = IterationTime(16, "fifo");
        double priorityCompute = IterationTime(16, "priority");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            priorityCompute, fifoCompute, fifoCompute * 1e-6, "compute-bound: no difference");
    }
};

/**
 * \ingroup ddnn-tests
 * Without the barrier, forward of the next iteration starts the moment the
 * buffer holding layer 0 arrives; with it, when the last buffer arrives.
 */
class BarrierTestCase : public TestCase
{
  public:
    BarrierTestCase()
        : TestCase("ideal: without the barrier forward starts when layer 0's buffer arrives")
    {
    }

  private:
    struct Times
    {
        Time secondIterationStart;
        Time layer0BufferEnd;
        Time lastBufferEnd;
    };

    static Times
    Run(bool barrier)
    {
        Job j(4, DdnnDataPath("thesis-default-profile.csv"), 5333329, MilliSeconds(100));
        j.UseIdealTransport();
        j.helper.SetAttribute("QueuePolicy", EnumValue(TrainingJob::PRIORITY));
        j.helper.SetAttribute("Barrier", BooleanValue(barrier));
        j.helper.SetAttribute("Iterations", UintegerValue(2));
        j.Install();
        Times t;
        j.job->GetWorker(0)->TraceConnectWithoutContext(
            "IterationStart",
            MakeBoundCallback(
                +[](Times* t, uint32_t, uint32_t iteration) {
                    if (iteration == 1)
                    {
                        t->secondIterationStart = Simulator::Now();
                    }
                },
                &t));
        Simulator::Run();
        uint32_t layer0Buffer = j.job->GetModel()->GetBufferOfLayer(0);
        for (const auto& rec : j.job->GetRecords())
        {
            if (rec.iteration == 0)
            {
                t.lastBufferEnd = Max(t.lastBufferEnd, NanoSeconds(rec.end_ns));
                if (rec.buffer == layer0Buffer)
                {
                    t.layer0BufferEnd = NanoSeconds(rec.end_ns);
                }
            }
        }
        Simulator::Destroy();
        return t;
    }

    void
    DoRun() override
    {
        Times free = Run(false);
        NS_TEST_ASSERT_MSG_EQ(free.secondIterationStart, free.layer0BufferEnd, "no barrier");
        NS_TEST_ASSERT_MSG_LT(free.layer0BufferEnd,
                              free.lastBufferEnd,
                              "network-bound with priority: layer 0's buffer is not the last");
        Times barrier = Run(true);
        NS_TEST_ASSERT_MSG_EQ(barrier.secondIterationStart, barrier.lastBufferEnd, "barrier");
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
            TrainingScenario s;
            s.workers = n;
            s.profile = profile;
            s.fusionBytes = 40000;
            s.computeMs = 1;
            s.iterations = 2;
            TrainingRunResult run = RunTraining(s, "");
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
        TrainingScenario s;
        s.workers = 3;
        s.profile = profile;
        s.fusionBytes = 40000;
        s.computeMs = 1;
        s.iterations = 2;
        RunTraining(s, first);
        RunTraining(s, second);
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
 * Bad input names the attribute; a closed connection names the worker and the
 * time; a stall ends the run with who waits for what.
 */
class TrainingFaultsTestCase : public TestCase
{
  public:
    TrainingFaultsTestCase()
        : TestCase("bad input, closed connections and stalls end the run with a diagnosis")
    {
    }

  private:
    void
    DoRun() override
    {
        const std::string profile = DdnnDataPath("thesis-default-profile.csv");
        auto contains = [](const std::string& text, const std::string& part) {
            return text.find(part) != std::string::npos;
        };

        std::string one = ErrorOf([&] {
            NodeContainer nodes(1);
            TrainingHelper h;
            h.SetAttribute("ProfileFile", StringValue(profile));
            h.Install(nodes);
        });
        NS_TEST_ASSERT_MSG_EQ(contains(one, "at least 2 worker nodes"), true, one);

        std::string tos = ErrorOf([] {
            TrainingHelper h;
            h.SetAttribute("Tos", UintegerValue(300));
        });
        NS_TEST_ASSERT_MSG_EQ(contains(tos, "ns3::TcpPartitionTransport::Tos"), true, tos);

        std::string map = ErrorOf([] {
            CreateObject<MappedBufferPriority>()->SetAttribute("Map", StringValue("0=8,3=300"));
        });
        NS_TEST_ASSERT_MSG_EQ(contains(map, "got '3=300' in '0=8,3=300'"), true, map);
        Ptr<MappedBufferPriority> mapped = CreateObject<MappedBufferPriority>();
        mapped->SetAttribute("Map", StringValue("0=8,18=0x10"));
        NS_TEST_ASSERT_MSG_EQ(mapped->GetTos(nullptr, 18), 0x10, "mapped buffer");
        NS_TEST_ASSERT_MSG_EQ(mapped->GetTos(nullptr, 5), -1, "buffer the map does not name");

        std::string transport = ErrorOf([] { TrainingHelper().SetTransport("ns3::Node"); });
        NS_TEST_ASSERT_MSG_EQ(
            contains(transport, "'ns3::Node' is no ns3::PartitionTransport"), true, transport);

        std::string collective = ErrorOf([&] {
            Job j(2, profile, 5333329, MilliSeconds(1));
            j.helper.SetAttribute("Collective", StringValue("tree"));
            j.Install();
        });
        NS_TEST_ASSERT_MSG_EQ(
            contains(collective, "unknown collective 'tree', expected one of: ring-allreduce"),
            true,
            collective);

        std::string unknown = ErrorOf([] {
            TrainingHelper h;
            h.SetAttribute("NoSuchThing", UintegerValue(1));
        });
        NS_TEST_ASSERT_MSG_EQ(contains(unknown, "NoSuchThing"), true, unknown);

        TrainingScenario bad;
        bad.iterations = 1;
        bad.computeMs = 0;
        bad.rcp = 0; // neither a compute time nor a ratio to derive it from
        std::string compute = ErrorOf([&] { bad.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(contains(compute, "--computeMs"), true, compute);
        bad.computeMs = 10;
        bad.fusionBytes = 0;
        std::string fusion = ErrorOf([&] { bad.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(contains(fusion, "--fusionBytes"), true, fusion);

        // Worker 2 stops early: its neighbours see their connections close.
        std::string closed = ErrorOf([&] {
            Job j(4, profile, 5333329, MilliSeconds(100));
            j.Install();
            j.job->GetWorker(2)->SetStopTime(MilliSeconds(40));
            Simulator::Run();
            j.job->ThrowIfFailed();
        });
        NS_TEST_ASSERT_MSG_EQ(contains(closed, "worker 2 closed at +0.04"), true, closed);
        NS_TEST_ASSERT_MSG_EQ(contains(closed, "worker 3: connection from worker 2")
                                  || contains(closed, "worker 1: connection to worker 2"),
                              true,
                              closed);

        // A step latency longer than StallTimeout: nothing progresses, the watchdog fires.
        std::string stall = ErrorOf([&] {
            Job j(3, profile, 5333329, MilliSeconds(10));
            j.UseIdealTransport();
            j.helper.SetAttribute("StepLatency", TimeValue(Seconds(5)));
            j.helper.SetAttribute("StallTimeout", TimeValue(Seconds(1)));
            j.Install();
            Simulator::Run();
            j.job->ThrowIfFailed();
        });
        NS_TEST_ASSERT_MSG_EQ(contains(stall, "training stalled"), true, stall);
        NS_TEST_ASSERT_MSG_EQ(contains(stall, "worker 0: no more iterations")
                                  || contains(stall, "worker 0: iteration 0"),
                              true,
                              stall);
        NS_TEST_ASSERT_MSG_EQ(contains(stall, "steps received"), true, stall);
    }
};

/**
 * \ingroup ddnn-tests
 * A program that forgets TransportSettings::Apply() gets ns-3's TCP defaults, and is told so
 * once on stderr.
 */
class TcpDefaultsWarningTestCase : public TestCase
{
  public:
    TcpDefaultsWarningTestCase()
        : TestCase("without TransportSettings::Apply() a run warns once about ns-3's TCP")
    {
    }

  private:
    void
    DoRun() override
    {
        Config::Reset(); // ns-3's own defaults, as in a program that set none
        std::ostringstream captured;
        std::streambuf* saved = std::cerr.rdbuf(captured.rdbuf());
        {
            Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
            network->Create(3);
            TrainingHelper helper;
            helper.SetAttribute("ProfileFile", StringValue(ddnntest::ScaledThesisProfile(100)));
            helper.SetAttribute("Iterations", UintegerValue(1));
            helper.SetAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
            helper.Install(network);
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            Simulator::Destroy();
        }
        std::cerr.rdbuf(saved);
        const std::string text = captured.str();
        const bool warned = text.find("TransportSettings::Apply()") != std::string::npos;
        const bool once = text.find("warning", text.find("warning") + 1) == std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(warned, true, "the warning: '" + text + "'");
        NS_TEST_ASSERT_MSG_EQ(once, true, "only once: '" + text + "'");
        ddnntest::ApplyTunedTransport();
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the training tenant.
 */
class TrainingTestSuite : public TestSuite
{
  public:
    TrainingTestSuite()
        : TestSuite("ddnn-training", Type::SYSTEM)
    {
        for (uint32_t n : {2, 3, 4, 8})
        {
            AddTestCase(new BytesPerAllreduceTestCase("tcp", n));
            AddTestCase(new BytesPerAllreduceTestCase("ideal", n));
        }
        AddTestCase(new IdealAllreduceTimeTestCase);
        AddTestCase(new LayerComputeTraceTestCase);
        AddTestCase(new ParameterServerTestCase(1));
        AddTestCase(new ParameterServerTestCase(4));
        AddTestCase(new ScenarioParameterServerHostsTestCase);
        AddTestCase(new DctcpEcnTestCase);
        AddTestCase(new DctcpQueueTestCase);
        AddTestCase(new BufferPriorityTestCase);
        AddTestCase(new SeveralJobsTestCase);
        AddTestCase(new DelayAndRateImpairmentTestCase);
        AddTestCase(new FourBandsTestCase);
        AddTestCase(new ComputeBoundTestCase);
        AddTestCase(new PacketVersusIdealTestCase);
        AddTestCase(new PriorityVersusFifoTestCase);
        AddTestCase(new BarrierTestCase);
        AddTestCase(new RingSizesAndDeterminismTestCase);
        AddTestCase(new TrainingFaultsTestCase);
        AddTestCase(new StragglerTestCase);
        AddTestCase(new WindowEstimatorTestCase);
        AddTestCase(new LossImpairmentTestCase);
        AddTestCase(new TcpDefaultsWarningTestCase); // last: it resets ns-3's defaults
    }
};

static TrainingTestSuite g_trainingTestSuite; //!< registers the suite
