/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The training loop, checked against first principles: per-layer compute, the
 * inter-iteration barrier, priority against FIFO, the iteration period's estimator, the
 * training's load on the links (eq. 5.2), several jobs on one network, bad input and
 * faults, and the warning about ns-3's TCP defaults.
 */
#include "ddnn-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/utilization-meter.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::ddnntest;

/**
 * \ingroup ddnn-tests
 * The per-layer trace: each iteration computes forward 0..L-1 then backward L-1..0, and the
 * durations add up to the compute time (1.5 x it on a straggler), within a nanosecond per
 * layer of rounding. With FirstPass Backward, iteration 0 computes the backward pass alone:
 * the sum of the layers' backward times.
 */
class LayerComputeTraceTestCase : public TestCase
{
  public:
    LayerComputeTraceTestCase(bool firstBackward)
        : TestCase(firstBackward ? "LayerCompute, FirstPass Backward: iteration 0 computes the "
                                   "backward pass alone, iteration 1 all"
                                 : "LayerCompute: layers in order, durations add up to the "
                                   "compute time")
        , m_firstBackward(firstBackward)
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
        const uint32_t workers = 2;
        Job t(workers, SmallThesisProfile(), 533333, MilliSeconds(10));
        t.UseIdealTransport();
        t.helper.SetAttribute("Iterations", UintegerValue(2));
        t.helper.SetAttribute(
            "FirstPass", EnumValue(m_firstBackward ? TrainingJob::BACKWARD : TrainingJob::FORWARD));
        t.Install();
        t.job->GetWorker(1)->SetAttribute("ComputeScale", DoubleValue(1.5));
        std::vector<std::vector<Task>> tasks(workers);
        for (uint32_t r = 0; r < workers; ++r)
        {
            t.job->GetWorker(r)->TraceConnectWithoutContext(
                "LayerCompute", MakeBoundCallback(&LayerComputeTraceTestCase::Record, &tasks));
        }
        Simulator::Run();
        Simulator::Destroy();
        Ptr<DnnModel> model = t.job->GetModel();
        const uint32_t layers = model->GetLayerCount();
        int64_t backwardTime = 0;
        for (uint32_t l = 0; l < layers; ++l)
        {
            backwardTime += model->GetBackwardTime(l).GetNanoSeconds();
        }
        for (uint32_t r = 0; r < workers; ++r)
        {
            const uint32_t firstTasks = m_firstBackward ? layers : 2 * layers;
            NS_TEST_ASSERT_MSG_EQ(
                tasks[r].size(), firstTasks + 2 * layers, "tasks of worker " << r);
            size_t next = 0;
            for (uint32_t it = 0; it < 2; ++it)
            {
                const uint32_t skipped = (it == 0 && m_firstBackward) ? layers : 0;
                int64_t total = 0;
                for (uint32_t k = skipped; k < 2 * layers; ++k)
                {
                    const Task& task = tasks[r][next++];
                    const bool backward = k >= layers;
                    NS_TEST_ASSERT_MSG_EQ(task.iteration, it, "iteration");
                    NS_TEST_ASSERT_MSG_EQ(task.backward, backward, "pass of task " << k);
                    const uint32_t layer = backward ? 2 * layers - 1 - k : k;
                    NS_TEST_ASSERT_MSG_EQ(task.layer, layer, "layer of task " << k);
                    total += task.duration.GetNanoSeconds();
                }
                const int64_t pass
                    = skipped ? backwardTime : model->GetComputeTime().GetNanoSeconds();
                NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(total),
                                          pass * (r == 1 ? 1.5 : 1.0),
                                          2.0 * layers,
                                          "compute of worker " << r << ", iteration " << it);
            }
        }
    }

    bool m_firstBackward;
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
        // The thesis default job: 8 workers, its model in buffers of 5333329 bytes.
        const std::string profile = DdnnDataPath("thesis-default-profile.csv");
        Job t(8, profile, 5333329, ComputeTimeOfRcp(rcp, profile, 8, DataRate("10Gbps")));
        t.UseIdealTransport();
        t.helper.SetAttribute(
            "QueuePolicy", EnumValue(queue == "fifo" ? TrainingJob::FIFO : TrainingJob::PRIORITY));
        t.helper.SetAttribute("Barrier", BooleanValue(false));
        t.helper.SetAttribute("Iterations", UintegerValue(4));
        t.Install();
        TrainingRecorder recorder(t.job);
        Simulator::Run();
        const double period
            = recorder.Summarize(t.idealRate, t.idealStepLatency).iterationTimeMeanS;
        Simulator::Destroy();
        return period;
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
        const std::string profile = SmallThesisProfile();
        Job t(4, profile, 533333, ComputeTimeOfRcp(16, profile, 4, DataRate("10Gbps")));
        t.UseIdealTransport();
        t.helper.SetAttribute("Iterations", UintegerValue(6));
        t.helper.SetAttribute("Barrier", BooleanValue(true));
        t.Install();
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
 * Training alone and compute-bound (rcp 16): its measured load matches
 * eq. 5.2 (1/16 of the link) within 10 %.
 */
class TrainingLoadTestCase : public TestCase
{
  public:
    TrainingLoadTestCase()
        : TestCase("compute-bound training load matches eq. 5.2 within 10 %")
    {
    }

  private:
    void
    DoRun() override
    {
        const std::string profile = ddnntest::ScaledThesisProfile(100);
        Job training(4, profile, 53334, ComputeTimeOfRcp(16, profile, 4, DataRate("10Gbps")));
        training.helper.SetAttribute("Iterations", UintegerValue(10));
        training.Install();
        Ptr<SingleTorHelper> network = training.network;
        Time compute = training.job->GetModel()->GetComputeTime();
        // whole iterations only: the 2nd to the 9th
        UtilizationMeter meter(network, MilliSeconds(10), compute, 9 * compute);
        Simulator::Run();
        const double expected = 1.0 / 16;
        const double measured = meter.GetUplinkUtilization(TenantKind::TRAINING)
                                * TransportSettings().GoodputFraction();
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, expected * 0.10, "training load");
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
        Ptr<SingleTorHelper> alone = TunedSingleTor(8);
        Ptr<TrainingJob> single = InstallMegabyteJob(PlaceJob(alone, "0,1,2,3", 4), 5000, 0x10, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(single->IsFinished(), true, "the job alone finished");
        const double aloneTime = IterationTime(single);
        Simulator::Destroy();

        Ptr<SingleTorHelper> both = TunedSingleTor(8);
        Ptr<TrainingJob> a = InstallMegabyteJob(PlaceJob(both, "0,1,2,3", 4), 5000, 0x10, 2);
        Ptr<TrainingJob> b = InstallMegabyteJob(PlaceJob(both, "4,5,6,7", 4), 5000, 0x10, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(IterationTime(a), aloneTime, aloneTime * 0.01, "job a");
        NS_TEST_ASSERT_MSG_EQ_TOL(IterationTime(b), aloneTime, aloneTime * 0.01, "job b");
        Simulator::Destroy();

        Ptr<SingleTorHelper> shared = TunedSingleTor(4);
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
            NodeContainer nodes;
            nodes.Create(1);
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

namespace
{

/**
 * Periods between the starts of successive iterations' one buffer (ns), after the first, for
 * 4 workers with one 100 kB buffer, 200 us of compute and the barrier over the ideal transport,
 * synced by `syncer` with the coordinator's `cycle`. Also gives the syncing bytes and the
 * one-way trip of a syncing message on the rack.
 */
std::vector<int64_t>
SyncPeriods(const std::string& syncer, Time cycle, uint64_t* syncBytes, double* tripS)
{
    ddnntest::Job j(
        4, ddnntest::WriteProfile("sync-" + syncer + ".csv", {100000}), 100000, MicroSeconds(200));
    j.UseIdealTransport();
    j.helper.SetAttribute("Iterations", UintegerValue(6));
    j.helper.SetAttribute("Syncer", StringValue(syncer));
    j.helper.SetAttribute("SyncCycle", TimeValue(cycle));
    j.Install();
    Simulator::Run();
    NS_ABORT_MSG_UNLESS(j.job->IsFinished(), "the job finishes");
    std::vector<int64_t> periods;
    const std::vector<TrainingJob::Record> records = j.job->GetRecords();
    for (size_t i = 2; i < records.size(); ++i)
    {
        periods.push_back(static_cast<int64_t>(records[i].start_ns - records[i - 1].start_ns));
    }
    *syncBytes = j.job->GetSyncBytes();
    // 12 bytes of message, TCP's 20 and its 12 of timestamps, IPv4's 20, PPP's 2, per link.
    const double wire = (12 + 32 + 20 + 2) * 8 / j.network->GetDataRate().GetBitRate();
    *tripS = 2 * (j.network->GetDelay().GetSeconds() + wire);
    Simulator::Destroy();
    return periods;
}

} // namespace

/**
 * \ingroup ddnn-tests
 * The network syncer (Horovod's coordinator on worker 0): with a cycle of 1 ns each iteration
 * takes the instant syncer's plus one coordination latency, a READY's trip to the coordinator
 * and the START's trip back (within 10 %), and 12 bytes go per message: 3 READY, 3 DONE and
 * 3 START per buffer (worker 0's own stay on its node). With a cycle of 1 ms, longer than an
 * iteration, each iteration takes exactly one cycle.
 */
class NetworkSyncerTestCase : public TestCase
{
  public:
    NetworkSyncerTestCase()
        : TestCase("network syncer: one coordination latency per buffer, one cycle at least")
    {
    }

  private:
    void
    DoRun() override
    {
        uint64_t bytes = 0;
        double trip = 0;
        const std::vector<int64_t> instant = SyncPeriods("Instant", MilliSeconds(1), &bytes, &trip);
        NS_TEST_ASSERT_MSG_EQ(bytes, 0, "the instant syncer sends nothing");
        const std::vector<int64_t> network = SyncPeriods("Network", NanoSeconds(1), &bytes, &trip);
        NS_TEST_ASSERT_MSG_EQ(network.size(), instant.size(), "as many iterations");
        for (size_t i = 0; i < network.size(); ++i)
        {
            const double added = (network[i] - instant[i]) * 1e-9;
            NS_TEST_ASSERT_MSG_EQ_TOL(added,
                                      2 * trip,
                                      0.1 * 2 * trip,
                                      "iteration " << i + 2 << ": " << added * 1e6 << " us added");
        }
        NS_TEST_ASSERT_MSG_EQ(bytes, 6 * 9 * 12, "9 messages of 12 bytes per buffer");
        const std::vector<int64_t> cycled = SyncPeriods("Network", MilliSeconds(1), &bytes, &trip);
        NS_TEST_ASSERT_MSG_LT(instant[0] + 2 * trip * 1e9, 1e6, "an iteration within a cycle");
        for (size_t i = 0; i < cycled.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(cycled[i], 1000000, "iteration " << i + 2 << " takes a cycle");
        }
    }
};

/**
 * \ingroup ddnn-tests
 * A Chakra trace is its profile: data/chakra/training-4 (4 ranks, 3 layers, an all-reduce after
 * each backward node) runs as data/chakra/training-4.csv at the trace's compute time, to the
 * byte and the nanosecond; ASTRA-sim's microbenchmark shape (one 1 MiB all-reduce, no compute)
 * runs, and each worker sends 2 (N-1) / N x 1 MiB per iteration.
 */
class ChakraTraceTestCase : public TestCase
{
  public:
    ChakraTraceTestCase()
        : TestCase("ideal: a 4-rank Chakra trace runs as its equivalent profile")
    {
    }

  private:
    struct Outcome
    {
        std::vector<uint64_t> bytes; //!< per worker and iteration
        int64_t endNs{0};            //!< the last collective's end
        double traceExpected{0};
    };

    static Outcome
    Run(const std::string& profile, const std::string& trace, Time compute, uint64_t fusion)
    {
        Job j(4, profile, fusion, compute);
        if (!trace.empty())
        {
            j.helper.SetAttribute("ChakraTrace", StringValue(trace));
        }
        j.UseIdealTransport();
        j.helper.SetAttribute("Iterations", UintegerValue(3));
        j.Install();
        Simulator::Run();
        Outcome o;
        for (uint32_t r = 0; r < 4; ++r)
        {
            for (uint32_t it = 0; it < 3; ++it)
            {
                o.bytes.push_back(j.job->GetWorker(r)->GetBytesSent(it));
            }
        }
        for (const auto& rec : j.job->GetRecords())
        {
            o.endNs = std::max<int64_t>(o.endNs, rec.end_ns);
        }
        o.traceExpected = j.job->GetModel()->GetChakraExpectedBytesPerWorker();
        Simulator::Destroy();
        return o;
    }

    void
    DoRun() override
    {
        // 3 layers of 300 us forward and 600 us backward: 2.7 ms per iteration.
        // Fusion of 400000 bytes: layer 0 alone, layers 1 and 2 together.
        const Outcome csv
            = Run(DdnnDataPath("chakra/training-4.csv"), "", MicroSeconds(2700), 400000);
        const Outcome trace
            = Run("", DdnnDataPath("chakra/training-4"), MicroSeconds(2700), 400000);
        NS_TEST_ASSERT_MSG_EQ(trace.bytes.size(), csv.bytes.size(), "workers x iterations");
        for (size_t i = 0; i < csv.bytes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(
                trace.bytes[i], csv.bytes[i], "bytes of worker x iteration " << i);
            // 2 (4-1)/4 x (400000 + 250000 + 100000)
            NS_TEST_ASSERT_MSG_EQ(trace.bytes[i], 1125000, "ring bytes from first principles");
        }
        NS_TEST_ASSERT_MSG_EQ(trace.endNs, csv.endNs, "the same iterations, to the ns");
        NS_TEST_ASSERT_MSG_GT(trace.endNs, 3 * 2700000, "three iterations of compute at least");
        NS_TEST_ASSERT_MSG_EQ_TOL(trace.traceExpected, 1125000.0, 1e-6, "the trace's own figure");
        NS_TEST_ASSERT_MSG_EQ(std::isnan(csv.traceExpected), true, "a profile has none");

        const Outcome bench = Run("", DdnnDataPath("chakra/allreduce-4"), MicroSeconds(1), 1048576);
        for (uint64_t bytes : bench.bytes)
        {
            NS_TEST_ASSERT_MSG_EQ(bytes, 1572864, "2 (4-1)/4 x 1048576");
        }
        NS_TEST_ASSERT_MSG_GT(bench.endNs, 0, "the microbenchmark's all-reduces ran");

        // The helper refuses a trace of another number of ranks than the job's workers.
        Job eight(8, "", 1048576, MicroSeconds(1));
        eight.helper.SetAttribute("ChakraTrace", StringValue(DdnnDataPath("chakra/allreduce-4")));
        std::string error;
        try
        {
            eight.Install();
        }
        catch (const DdnnError& e)
        {
            error = e.what();
        }
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_NE(
            error.find("the trace has 4 ranks, the job 8 workers"), std::string::npos, error);
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the training loop.
 */
class TrainingLoopTestSuite : public TestSuite
{
  public:
    TrainingLoopTestSuite()
        : TestSuite("ddnn-training-loop", Type::SYSTEM)
    {
        AddTestCase(new LayerComputeTraceTestCase(false));
        AddTestCase(new LayerComputeTraceTestCase(true));
        AddTestCase(new BarrierTestCase);
        AddTestCase(new PriorityVersusFifoTestCase);
        AddTestCase(new WindowEstimatorTestCase);
        AddTestCase(new TrainingLoadTestCase);
        AddTestCase(new SeveralJobsTestCase);
        AddTestCase(new NetworkSyncerTestCase);
        AddTestCase(new TrainingFaultsTestCase);
        AddTestCase(new ChakraTraceTestCase);
        AddTestCase(new TcpDefaultsWarningTestCase); // last: it resets ns-3's defaults
    }
};

static TrainingLoopTestSuite g_trainingLoopTestSuite; //!< registers the suite
