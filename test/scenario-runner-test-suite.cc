/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The programs' runner: runs built from a scenario record (Scenario, scenario files):
 * compute time from rcp, stragglers and jitter,
 * transport profiles, flow bookkeeping, several jobs, fabrics and dedicated
 * parameter-server hosts from a scenario, and its bad input.
 */
#include "../examples/runner/runner.h"
#include "../model/ddnn-ring.h"
#include "ddnn-test-util.h"

#include "../examples/runner/ddnn-scenario-params.h"
#include "ns3/boolean.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::ddnntest;

namespace
{

/** Four workers on the small thesis profile, buffers of at most 533333 bytes. */
Scenario
SmallScenario()
{
    Scenario s;
    s.values.workers = 4;
    s.Set("training.profile", SmallThesisProfile());
    s.values.jobs[0].fusion_bytes = 533333;
    return s;
}

} // namespace

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
        Scenario s = SmallScenario();
        s.values.jobs[0].rcp = 16;
        s.values.jobs[0].iterations = 2;
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
        Scenario s = SmallScenario();
        s.values.jobs[0].rcp = 16;
        s.values.jobs[0].iterations = iterations;
        s.Set("training.transport", "ideal");
        if (scale != 1.0)
        {
            s.Set("training.stragglers", "0");
            s.values.jobs[0].straggler_scale = scale;
        }
        s.Set("training.jitter", jitter);
        s.ValidateTraining();
        RngSeedManager::SetSeed(seed);
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.values.workers);
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
 * A training scenario without a compute time (nor a ratio to derive it from) or without
 * fusion buffers names the flag at fault.
 */
class ScenarioWithoutComputeOrFusionTestCase : public TestCase
{
  public:
    ScenarioWithoutComputeOrFusionTestCase()
        : TestCase("a scenario without compute time or fusion buffers names the flag")
    {
    }

  private:
    void
    DoRun() override
    {
        auto contains = [](const std::string& text, const std::string& part) {
            return text.find(part) != std::string::npos;
        };
        Scenario bad;
        bad.values.jobs[0].iterations = 1;
        bad.values.jobs[0].compute_ms = 0;
        bad.values.jobs[0].rcp = 0; // neither a compute time nor a ratio to derive it from
        std::string compute = ErrorOf([&] { bad.ValidateTraining(); });
        NS_TEST_ASSERT_MSG_EQ(contains(compute, "--computeMs"), true, compute);
        bad.values.jobs[0].compute_ms = 10;
        bad.values.jobs[0].fusion_bytes = 0;
        std::string fusion = ErrorOf([&] { bad.ValidateTraining(); });
        NS_TEST_ASSERT_MSG_EQ(contains(fusion, "--fusionBytes"), true, fusion);
    }
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
        Scenario s;
        s.values.workers = 6;
        s.values.jobs[0].workers = 4;
        s.Set("training.profile", WriteProfile("ps-hosts.csv", {bufferBytes}));
        s.values.jobs[0].fusion_bytes = bufferBytes;
        s.values.jobs[0].compute_ms = 1;
        s.values.jobs[0].iterations = 2;
        s.Set("training.collective", "parameter-server");
        s.values.jobs[0].parameter_servers = 2;
        s.Set("training.parameter-server-hosts", "dedicated");
        s.ValidateTraining();
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.values.workers);
        InstalledTraining t = InstallTraining(s, network);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_EQ(t.job->GetWorkerCount(), 4, "four workers");
        uint64_t shards = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            Ptr<ParameterServerHost> server = t.job->GetParameterServer(k);
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
        s.values.workers = 5;
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([&] { s.ValidateTraining(); }),
                              "--parameterServers: 4 workers and 2 dedicated parameter servers "
                              "do not fit the single-tor's 5 servers",
                              "no room");
        s.values.workers = 6;
        s.Set("training.collective", "ring-allreduce");
        s.Set("training.parameter-servers", "1"); // a count of servers it would not read
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([&] { s.ValidateTraining(); }),
                              "--parameterServerHosts: dedicated hosts serve the parameter-server "
                              "collective, not ring-allreduce",
                              "ring");
    }
};

/**
 * \ingroup ddnn-tests
 * The transport profile decides the bands: under "thesis", with training at low priority,
 * the switch and host queue discs see background data in band 0, background ACKs in band 1
 * (its sinks ACK at ToS 0), training data and ACKs in band 2, and NewReno on every node;
 * under "tuned" the background ACKs ride band 0 with their data and band 1 stays empty.
 */
class TransportProfileBandsTestCase : public TestCase
{
  public:
    TransportProfileBandsTestCase()
        : TestCase("transport profiles: thesis puts background ACKs in band 1, NewReno")
    {
    }

  private:
    /** Packets enqueued per band, split into data (> 100 bytes) and pure ACKs. */
    struct Counts
    {
        uint64_t data[3]{};
        uint64_t acks[3]{};
    };

    static void
    Enqueued(Counts* counts, uint32_t band, Ptr<const QueueDiscItem> item)
    {
        (item->GetPacket()->GetSize() > 100 ? counts->data : counts->acks)[band]++;
    }

    static void
    ConnectBands(Ptr<SingleTorHelper> network, uint32_t servers, Counts* counts)
    {
        for (uint32_t i = 0; i < servers; ++i)
        {
            for (Ptr<QueueDisc> disc :
                 {network->GetServerQueueDisc(i), network->GetSwitchQueueDisc(i)})
            {
                const std::vector<Ptr<Object>> bands = EgressQueue::BandQueues(disc);
                for (uint32_t band = 0; band < bands.size(); ++band)
                {
                    bands[band]->TraceConnectWithoutContext(
                        "Enqueue", MakeBoundCallback(&Enqueued, counts, band));
                }
            }
        }
    }

    static Counts
    Run(const std::string& profile, std::string& congestion)
    {
        Scenario s;
        s.values.workers = 3;
        s.Set("training.profile", ddnntest::ScaledThesisProfile(100));
        s.values.jobs[0].fusion_bytes = 53334;
        s.values.jobs[0].compute_ms = 5;
        s.values.jobs[0].iterations = 2;
        s.Set("priority.training", "low"); // training at low priority: band 2
        s.SetTransport(TransportSettings::Profile(profile));
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.values.workers);
        InstallTraining(s, network);
        std::string cdf = ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n");
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetPatternAttribute("CdfFile", StringValue(cdf));
        helper->SetPatternAttribute("FlowRate", DoubleValue(300));
        helper->SetAttribute("Stop", TimeValue(MilliSeconds(20)));
        helper->SetAttribute("Tos", UintegerValue(0x10));
        Ptr<BackgroundTenant> tenant = helper->Install(network->GetServers());
        tenant->SetAttribute("AcksInDataBand",
                             BooleanValue(s.Transport().backgroundAcksInDataBand));
        Counts counts;
        // The bands exist once the simulation has initialized the queue discs.
        Simulator::Schedule(Seconds(0), &ConnectBands, network, s.values.workers, &counts);
        TypeIdValue socketType;
        network->GetServer(0)->GetObject<TcpL4Protocol>()->GetAttribute("SocketType", socketType);
        congestion = socketType.Get().GetName();
        Simulator::Stop(MilliSeconds(60));
        Simulator::Run();
        Simulator::Destroy();
        return counts;
    }

    void
    DoRun() override
    {
        std::string congestion;
        Counts thesis = Run("thesis", congestion);
        NS_TEST_ASSERT_MSG_EQ(congestion, "ns3::TcpNewReno", "thesis congestion control");
        NS_TEST_ASSERT_MSG_GT(thesis.data[0], 100, "background data in band 0");
        NS_TEST_ASSERT_MSG_GT(thesis.acks[1], 100, "background ACKs in band 1");
        NS_TEST_ASSERT_MSG_EQ(thesis.data[1], 0, "no data in band 1");
        NS_TEST_ASSERT_MSG_GT(thesis.data[2], 100, "training data in band 2");
        NS_TEST_ASSERT_MSG_GT(thesis.acks[2], 100, "training ACKs in band 2");
        Counts tuned = Run("tuned", congestion);
        NS_TEST_ASSERT_MSG_EQ(congestion, "ns3::TcpCubic", "tuned congestion control");
        NS_TEST_ASSERT_MSG_EQ(tuned.data[1] + tuned.acks[1], 0, "tuned: band 1 empty");
        NS_TEST_ASSERT_MSG_GT(tuned.acks[0], 100, "tuned: background ACKs with their data");
    }
};

/**
 * \ingroup ddnn-tests
 * Flow bookkeeping with both tenants: a flow still running at the end is
 * reported as started and not completed; hundreds of concurrent flows from
 * one server all complete; the same seed gives both runs the same flows.
 */
class FlowBookkeepingTestCase : public TestCase
{
  public:
    FlowBookkeepingTestCase()
        : TestCase("unfinished flows are counted, 300 concurrent flows complete, same schedule")
    {
    }

  private:
    void
    DoRun() override
    {
        // 300 flows of 30 kB from server 0 at t = 0, and one 30 MB flow that cannot finish
        std::string text = "flow_id,from,to,size_bytes,start_ns\n";
        for (int i = 0; i < 300; ++i)
        {
            text += std::to_string(i) + ",0," + std::to_string(1 + i % 3) + ",30000,0\n";
        }
        text += "300,1,2,30000000,1000000\n";
        Scenario s;
        s.values.workers = 4;
        s.Set("training.transport", "ideal"); // training present, but cheap
        s.values.jobs[0].rcp = 4;
        s.Set("background.pattern", "schedule");
        s.Set("background.schedule", ddnntest::WriteTempFile("schedule.csv", text));
        s.values.duration_s = 0.02;
        s.values.warmup_s = 0;
        s.values.cooldown_s = 0.001;
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
        DatacenterResult r = RunDatacenter(s.ComparedAt("same"), flows, "");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_SMALL].started, 300, "small started");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_SMALL].completed, 300, "small completed");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_LARGE].started, 1, "large started");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_LARGE].completed, 0, "large still running");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_ALL].started, 301, "all counted");

        Scenario g;
        g.values.workers = 4;
        g.values.flow_rate = 200;
        g.values.duration_s = 1;
        g.values.warmup_s = 0.1;
        g.values.cooldown_s = 0.1;
        g.values.seed = 7;
        std::vector<ddnn_flow> a = MakeBackgroundFlows(g);
        std::vector<ddnn_flow> b = MakeBackgroundFlows(g);
        NS_TEST_ASSERT_MSG_GT(a.size(), 500, "flows generated");
        NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "same count");
        bool same = a.size() == b.size();
        for (size_t i = 0; same && i < a.size(); ++i)
        {
            same = a[i].src == b[i].src && a[i].dst == b[i].dst && a[i].bytes == b[i].bytes
                   && a[i].start_ns == b[i].start_ns;
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "same seed, same flows");
        g.values.seed = 8;
        std::vector<ddnn_flow> c = MakeBackgroundFlows(g);
        NS_TEST_ASSERT_MSG_EQ((c.size() != a.size() || c[0].start_ns != a[0].start_ns),
                              true,
                              "another seed, other flows");
    }
};

/**
 * \ingroup ddnn-tests
 * Two jobs from one scenario file on a single ToR of 8 servers, no background flows to speak
 * of: the second <training> takes the first's values but those it gives, is packed on the
 * servers the first left free, starts at its start-s, and its band sets its ToS. Each job
 * moves the ring's bytes, writes its own files and summary keys, and (on disjoint servers
 * of a non-blocking switch) iterates as fast as it does alone, within 1 %.
 */
class SeveralJobsScenarioTestCase : public TestCase
{
  public:
    SeveralJobsScenarioTestCase()
        : TestCase("a scenario of two jobs: placement, start, band, per-job files, as alone")
    {
    }

  private:
    /** The scenario of `xml`'s text (a file in the temporary folder). */
    static Scenario
    Load(const std::string& xml)
    {
        Scenario s;
        LoadScenarioFile(ddnntest::WriteTempFile("jobs.xml", xml), s);
        return s;
    }

    void
    DoRun() override
    {
        const std::string profile = ddnntest::WriteProfile("jobs.csv", {1000000, 1000000});
        const std::string head = "<scenario version=\"1\"><topology workers=\"8\"/>"
                                 "<background flow-rate=\"0.001\"/>"
                                 "<run duration-s=\"0.05\" warmup-s=\"0\" cooldown-s=\"0.001\"/>";
        const std::string first = "<training workers=\"4\" profile=\"" + profile
                                  + "\" fusion-bytes=\"1000000\" compute-ms=\"1\" "
                                    "iterations=\"3\"/>";
        const std::string second = "<training start-s=\"0.005\" compute-ms=\"2\" band=\"0\"/>";
        Scenario both = Load(head + first + second + "</scenario>");
        NS_TEST_ASSERT_MSG_EQ(both.JobCount() - 1, 1, "two jobs");
        NS_TEST_ASSERT_MSG_EQ(both.Job(1).workers, 4, "the first job's workers");
        NS_TEST_ASSERT_MSG_EQ(both.Job(1).compute_ms, 2, "its own compute time");
        NS_TEST_ASSERT_MSG_EQ(both.Job(1).iterations, 3, "the first job's iterations");
        // Bands: the first job's from the priority (low: band 2), the second's its own (0).
        NS_TEST_ASSERT_MSG_EQ(both.ComparedAt("low").JobTos(0), 0x08, "job 1 at low priority");
        NS_TEST_ASSERT_MSG_EQ(both.ComparedAt("low").JobTos(1), 0x10, "job 2 in band 0");
        // With four bands (prio4), band 1 is ToS 0x18 and band 3 ToS 0x08.
        Scenario four = both;
        four.Set("topology.queue-disc", "prio4");
        four.Set("training[2].band", "1");
        four.Set("training.band", "3");
        NS_TEST_ASSERT_MSG_EQ(four.ComparedAt("same").JobTos(1), 0x18, "prio4 band 1");
        NS_TEST_ASSERT_MSG_EQ(four.ComparedAt("same").JobTos(0), 0x08, "prio4 band 3");

        const std::string dir = SystemPath::MakeTemporaryDirectoryName();
        SystemPath::MakeDirectories(dir);
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(both);
        DatacenterResult r = RunDatacenter(both.ComparedAt("same"), flows, dir);
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 2, "two results");
        for (const JobResult& job : r.jobs)
        {
            NS_TEST_ASSERT_MSG_EQ(job.training.iterationsCompleted, 3, "iterations");
            // ring: 2 (N - 1) / N x 2 MB per worker and iteration, N = 4
            NS_TEST_ASSERT_MSG_EQ(job.training.bytesPerWorkerPerIteration, 3000000, "ring bytes");
            NS_TEST_ASSERT_MSG_EQ(job.trainingBytesReceived.size(), 4, "four workers");
        }
        // The second job's first iteration starts at its start-s.
        std::ifstream iterations(dir + "/job2-iterations.csv");
        std::string header, row;
        std::getline(iterations, header);
        std::getline(iterations, row);
        NS_TEST_ASSERT_MSG_EQ(row.substr(0, 10), "0,0,0.005,", "job 2 starts at 5 ms: " + row);
        for (const char* file : {"buffers.csv", "partitions.csv", "layers.csv", "iterations.csv"})
        {
            NS_TEST_ASSERT_MSG_EQ(std::ifstream(dir + "/job2-" + file).good(), true, file);
            NS_TEST_ASSERT_MSG_EQ(std::ifstream(dir + "/" + file).good(), true, file);
        }
        std::map<std::string, std::string> rows;
        for (const auto& [key, value] : SummaryRows(r))
        {
            rows[key] = value;
        }
        NS_TEST_ASSERT_MSG_EQ(rows.count("iteration_time_mean_s"), 1, "job 1's keys");
        NS_TEST_ASSERT_MSG_EQ(rows.count("job2_iteration_time_mean_s"), 1, "job 2's keys");
        NS_TEST_ASSERT_MSG_EQ(rows.count("job2_util_training_measured"), 1, "job 2's load");

        // Each job alone: the second one's values as the only job (same servers: 4 of 8).
        const std::string alone = "<training workers=\"4\" profile=\"" + profile
                                  + "\" fusion-bytes=\"1000000\" compute-ms=\"2\" "
                                    "iterations=\"3\" start-s=\"0.005\" placement=\"4,5,6,7\"/>";
        DatacenterResult firstAlone
            = RunDatacenter(Load(head + first + "</scenario>").ComparedAt("same"), flows, "");
        DatacenterResult secondAlone
            = RunDatacenter(Load(head + alone + "</scenario>").ComparedAt("same"), flows, "");
        const double t1 = firstAlone.jobs[0].training.iterationTimeMeanS;
        const double t2 = secondAlone.jobs[0].training.iterationTimeMeanS;
        NS_TEST_ASSERT_MSG_GT(t1, 0.001, "longer than compute");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[0].training.iterationTimeMeanS, t1, t1 * 0.01, "job 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[1].training.iterationTimeMeanS, t2, t2 * 0.01, "job 2");
    }
};

/**
 * \ingroup ddnn-tests
 * Bad input of the background tenant: one line naming the argument, file and line.
 */
class BackgroundBadInputTestCase : public TestCase
{
  public:
    BackgroundBadInputTestCase()
        : TestCase("bad background input names the argument, file and line")
    {
    }

  private:
    void
    DoRun() override
    {
        Scenario s;
        s.values.workers = 4;
        s.values.flow_rate = 0;
        std::string zero = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(zero, "--flowRate: expected a number in (0, "), true, zero);
        s.values.flow_rate = 10;
        s.values.duration_s = 1;
        s.values.warmup_s = 0.6;
        s.values.cooldown_s = 0.6;
        std::string window = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(window, "outside the run"), true, window);
        s.values.warmup_s = 0.1;
        s.values.cooldown_s = 0.1;
        std::string priority = ErrorOf([&] { s.Set("priority.training", "urgent"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(priority, "--trainingPriority"), true, priority);
        s.Set("priority.training", "low");

        s.Set("background.schedule",
              ddnntest::WriteTempFile("bad.csv", "0,0,1,100,0\n1,0,7,100,5\n"));
        const std::string unused = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(unused,
                              "--schedule: the web-search background pattern has no "
                              "ScheduleFile; --backgroundPattern=schedule has",
                              "a schedule the pattern would not read");
        s.Set("background.pattern", "schedule");
        std::string rate = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(Contains(rate,
                                       "--flowRate: the schedule background pattern has no "
                                       "FlowRate; --backgroundPattern=web-search has"),
                              true,
                              rate);
        s.values.flow_rate = Scenario().values.flow_rate; // the default: not given
        std::string server = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(
            Contains(server, "bad.csv:2: field 'to': server 7 does not exist"), true, server);
        s.Set("background.schedule", ddnntest::WriteTempFile("negative.csv", "0,0,1,-100,0\n"));
        std::string negative = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(
            Contains(negative, "negative.csv:1: field 'size_bytes'"), true, negative);
        s.Set("background.schedule", "");
        s.Set("background.pattern", "web-search");
        s.Set("background.cdf", ddnntest::WriteTempFile("down.csv", "0,0\n10,0.7\n20,0.5\n30,1\n"));
        std::string cdf = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(Contains(cdf, "down.csv:3: field 'cumulative_fraction'"), true, cdf);
    }
};

/**
 * \ingroup ddnn-tests
 * A whole datacenter run on a fabric from the scenario (--topology=fat-tree): 4 workers spread
 * over a 16-server fat tree next to background flows between all 16 servers. Every worker
 * receives its left neighbour's ring bytes, flows are generated for every server, and the
 * servers without a worker carry no training.
 */
class ScenarioOnFabricTestCase : public TestCase
{
  public:
    ScenarioOnFabricTestCase()
        : TestCase("scenario on a fat tree: spread job, background on every server")
    {
    }

  private:
    void
    DoRun() override
    {
        Scenario s;
        s.Set("topology.kind", "fat-tree");
        s.values.fat_tree_k = 4;
        s.values.workers = 4;
        s.Set("training.placement", "spread");
        s.Set("training.profile", WriteProfile("scenario-fabric.csv", {240000, 240001}));
        s.values.jobs[0].fusion_bytes = 240001;
        s.values.jobs[0].compute_ms = 1;
        s.values.jobs[0].iterations = 2;
        s.values.flow_rate = 100;
        s.values.duration_s = 0.05;
        s.values.warmup_s = 0;
        s.values.cooldown_s = 0.01;
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
        uint32_t highest = 0;
        for (const ddnn_flow& f : flows)
        {
            highest = std::max({highest, f.src, f.dst});
        }
        NS_TEST_ASSERT_MSG_EQ(highest, 15, "flows between all 16 servers");
        DatacenterResult r = RunDatacenter(s.ComparedAt("same"), flows, "");
        NS_TEST_ASSERT_MSG_EQ(r.jobs[0].training.iterationsCompleted, 2, "iterations");
        NS_TEST_ASSERT_MSG_EQ(r.jobs[0].trainingBytesReceived.size(), 4, "four workers");
        for (uint32_t w = 0; w < 4; ++w)
        {
            // Ranks 0..3 sit in racks 0..3; a worker receives what its left neighbour sends.
            uint64_t expected = 0;
            for (uint64_t buffer : {240000, 240001})
            {
                expected += 2 * ddnn_ring_bytes_sent_by(buffer, 4, (w + 3) % 4);
            }
            NS_TEST_ASSERT_MSG_EQ(r.jobs[0].trainingBytesReceived[w], expected, "worker " << w);
        }
        NS_TEST_ASSERT_MSG_EQ(r.linkUtilization.size(), 16, "every server measured");
        NS_TEST_ASSERT_MSG_EQ(r.linkUtilization[1][0], 0.0, "server 1 holds no worker");
        NS_TEST_ASSERT_MSG_GT(r.linkUtilization[2][0], 0.0, "server 2 (rank 1) trains");
        NS_TEST_ASSERT_MSG_GT(r.fct[DDNN_FLOWS_ALL].completed, 0, "background flows complete");
        // Per tier: a spread ring crosses pods, so training climbs to the cores; every tier
        // carries background flows.
        NS_TEST_ASSERT_MSG_EQ(r.tierUtilization.size(), 4, "two tiers, up and down");
        for (const auto& [tier, utilization] : r.tierUtilization)
        {
            NS_TEST_ASSERT_MSG_GT(utilization[0], 0.0, tier << " carries training");
            NS_TEST_ASSERT_MSG_GT(utilization[1], 0.0, tier << " carries background");
            NS_TEST_ASSERT_MSG_LT(utilization[0] + utilization[1], 1.0, tier << " below its rate");
        }
        NS_TEST_ASSERT_MSG_EQ(r.tierUtilization[0].first, "edge_aggregation_up", "first tier");
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the runner: runs built from scenario records.
 */
/**
 * Row p's value `text` as the attribute it names holds it, serialized: a time in the row's
 * unit, a choice by its enum name ("co-located": CoLocated), else as the attribute parses it.
 */
static std::string
AsAttribute(const ddnn_param* p, const std::string& text)
{
    const std::string target = p->sets;
    TypeId::AttributeInformation info;
    TypeId::LookupByName(target.substr(0, target.rfind("::")))
        .LookupAttributeByName(target.substr(target.rfind("::") + 2), &info);
    const std::map<std::string, double> nanoseconds = {{"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    if (DynamicCast<TimeValue>(info.checker->Create()))
    {
        return TimeValue(NanoSeconds(std::llround(std::stod(text) * nanoseconds.at(p->unit))))
            .SerializeToString(info.checker);
    }
    if (std::string(info.checker->GetValueTypeName()).rfind("ns3::EnumValue", 0) == 0)
    {
        std::string name;
        bool upper = true;
        for (char c : text)
        {
            if (c != '-')
            {
                name += upper ? static_cast<char>(std::toupper(c)) : c;
            }
            upper = c == '-';
        }
        return name;
    }
    Ptr<AttributeValue> parsed = info.checker->Create();
    parsed->DeserializeFromString(text, info.checker);
    return parsed->SerializeToString(info.checker);
}

/**
 * \ingroup ddnn-tests
 * The table and the attribute system agree on every range: each number row's values just
 * outside its range (above the maximum, below the minimum) are refused with the same line
 * whether given on the command line (--FLAG), in a scenario file or, for a row that sets an
 * ns-3 attribute, as --ns3::Type::Attribute; and that attribute's own checker refuses them too
 * while taking the row's bounds.
 */
class TableRangesAgreeTestCase : public TestCase
{
  public:
    TableRangesAgreeTestCase()
        : TestCase("a value out of a row's range is refused alike by the command line, the "
                   "scenario file, --ns3:: and the attribute")
    {
    }

  private:
    /** Values just outside p's range, as text. */
    static std::vector<std::string>
    OutOfRange(const ddnn_param* p)
    {
        const bool whole = p->type != DDNN_PARAM_DOUBLE;
        const double typeMax = p->type == DDNN_PARAM_U32 ? 4294967295.0 : 9007199254740992.0;
        std::vector<double> values;
        if (p->max < typeMax)
        {
            values.push_back(whole ? p->max + 1 : (p->max > 0 ? p->max * 10 : 1));
        }
        if (p->min_exclusive)
        {
            values.push_back(p->min);
        }
        else if (p->min > 0)
        {
            values.push_back(whole ? p->min - 1 : p->min / 10);
        }
        else if (!whole)
        {
            values.push_back(-1);
        }
        std::vector<std::string> texts;
        for (double v : values)
        {
            std::ostringstream text;
            text << std::setprecision(17) << v;
            texts.push_back(text.str());
        }
        return texts;
    }

    /** The scenario file's line for `text` as p's value. */
    static std::string
    FileRefusal(const ddnn_param* p, const std::string& text)
    {
        const std::string element = p->element;
        const std::string own = std::string(" ") + p->attribute + "=\"" + text + "\"";
        std::string doc = "<scenario version=\"1\"><topology";
        doc += element == "topology" ? own : "";
        doc += std::string(p->attribute) == "workers" && element == "topology" ? ""
                                                                               : " workers=\"4\"";
        doc += "/><run";
        doc += element == "run" ? own : "";
        doc += std::string(p->attribute) == "duration-s" ? "" : " duration-s=\"1\"";
        doc += "/>";
        if (element != "topology" && element != "run")
        {
            doc += "<" + element + own + "/>";
        }
        doc += "</scenario>";
        ddnn_scenario s{};
        ddnn_scenario_defaults(&s);
        ddnn_diag diag{};
        return ddnn_scenario_parse(&s, doc.c_str(), doc.size(), &diag) == DDNN_OK ? "(taken)"
                                                                                  : diag.message;
    }

    void
    DoRun() override
    {
        uint32_t checked = 0;
        for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
        {
            const ddnn_param* p = ddnn_scenario_param(i);
            if (p->type != DDNN_PARAM_U32 && p->type != DDNN_PARAM_U64
                && p->type != DDNN_PARAM_DOUBLE)
            {
                continue;
            }
            const std::string name = std::string(p->element) + "." + p->attribute;
            for (const std::string& text : OutOfRange(p))
            {
                const std::string flag = "--" + std::string(p->flag) + "=" + text;
                const char* argv[] = {"ddnn-datacenter", flag.c_str()};
                ddnn_scenario s{};
                ddnn_scenario_defaults(&s);
                const ddnn_param* bad = nullptr;
                ddnn_diag diag{};
                NS_TEST_ASSERT_MSG_NE(
                    ddnn_scenario_apply_args(&s, 2, argv, nullptr, nullptr, &bad, &diag),
                    DDNN_OK,
                    flag << " taken");
                const std::string line = diag.message;
                NS_TEST_ASSERT_MSG_EQ(line.rfind("expected ", 0), 0u, flag << ": " << line);
                NS_TEST_ASSERT_MSG_EQ(FileRefusal(p, text),
                                      "element '" + std::string(p->element) + "', attribute '"
                                          + p->attribute + "': " + line,
                                      name << "=" << text << " in a scenario file");
                ++checked;
                if (p->sets == nullptr)
                {
                    continue;
                }
                const std::string unit = p->unit;
                const bool time = unit == "s" || unit == "ms" || unit == "us";
                const std::string value = time ? text + unit : text;
                char expected[160];
                ddnn_param_describe(p, expected, sizeof expected);
                NS_TEST_ASSERT_MSG_EQ(
                    OwnedAttributeRefusal(p->sets, value),
                    time ? "expected " + std::string(expected) + ", got '" + value + "'" : line,
                    "--ns3::" << p->sets << "=" << value);
                // The attribute's own checker agrees: out of the row's range is out of its.
                const std::string target = p->sets;
                TypeId::AttributeInformation info;
                TypeId::LookupByName(target.substr(0, target.rfind("::")))
                    .LookupAttributeByName(target.substr(target.rfind("::") + 2), &info);
                Ptr<AttributeValue> parsed = info.checker->Create();
                NS_TEST_ASSERT_MSG_EQ(parsed->DeserializeFromString(value, info.checker)
                                          && info.checker->Check(*parsed),
                                      false,
                                      target << " takes " << value << ", out of its row's range");
            }
            if (p->sets != nullptr)
            {
                // ... and takes the row's own bounds.
                const std::string target = p->sets;
                TypeId::AttributeInformation info;
                TypeId::LookupByName(target.substr(0, target.rfind("::")))
                    .LookupAttributeByName(target.substr(target.rfind("::") + 2), &info);
                for (double bound : {p->min_exclusive ? p->max : p->min, p->max})
                {
                    std::ostringstream text;
                    text << std::setprecision(17) << bound;
                    Ptr<AttributeValue> parsed = info.checker->Create();
                    const std::string value = AsAttribute(p, text.str());
                    NS_TEST_ASSERT_MSG_EQ(parsed->DeserializeFromString(value, info.checker)
                                              && info.checker->Check(*parsed),
                                          true,
                                          target << " refuses its row's bound " << value);
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(checked, 40u, "number rows checked");
    }
};

/**
 * \ingroup ddnn-tests
 * Each ns-3 attribute the runner lists as set by itself exists (a renamed one would leave a
 * user's default silently overridden), and an owned default is refused naming its option.
 */
class Ns3DefaultOwnersTestCase : public TestCase
{
  public:
    Ns3DefaultOwnersTestCase()
        : TestCase("the ns-3 attributes the runner sets exist; a default for one is refused")
    {
    }

  private:
    void
    DoRun() override
    {
        for (const std::string& name : Ns3DefaultsOwned())
        {
            const size_t colons = name.rfind("::");
            TypeId tid;
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid)
                                      && tid.LookupAttributeByName(name.substr(colons + 2), &info),
                                  true,
                                  name << ": no such attribute");
        }
        NS_TEST_ASSERT_MSG_EQ(Ns3DefaultOwner("ns3::TrainingJob::Collective"), "--collective", "");
        NS_TEST_ASSERT_MSG_EQ(Ns3DefaultOwner("ns3::TcpSocketBase::Timestamp"), "", "");
        const std::string error = ErrorOf([] {
            ApplyNs3Defaults({{"ns3::FirstBuffersPriority::Count", "3"}}, "the command line");
        });
        NS_TEST_ASSERT_MSG_EQ(error,
                              "--ns3::FirstBuffersPriority::Count=3: ddnn sets this attribute "
                              "from --highPriorityBuffers: give that instead",
                              "");
    }
};

/**
 * \ingroup ddnn-tests
 * --compare's two sides: the same-priority run is the reference with every buffer at the
 * priority (the static policy, the policies' rows at their defaults, on every job), the
 * low-priority run keeps the jobs' policies; both keep every other value.
 */
class ComparedSidesTestCase : public TestCase
{
  public:
    ComparedSidesTestCase()
        : TestCase("--compare runs a priority policy against every buffer at the same priority")
    {
    }

  private:
    void
    DoRun() override
    {
        Scenario s;
        s.Set("training.priority-policy", "slack-adaptive");
        s.Set("training.slack-margin", "0.2");
        s.Set("training.fusion-bytes", "123456");
        s.Set("priority.training", "low");
        const Scenario same = s.ComparedAt("same");
        const Scenario low = s.ComparedAt("low");
        NS_TEST_ASSERT_MSG_EQ(std::string(same.values.training_priority), "same", "same side");
        NS_TEST_ASSERT_MSG_EQ(std::string(same.Job(0).priority_policy), "static", "reference");
        NS_TEST_ASSERT_MSG_EQ(same.Job(0).slack_margin,
                              Scenario().Job(0).slack_margin,
                              "the policy's row back at its default");
        NS_TEST_ASSERT_MSG_EQ(same.Job(0).fusion_bytes, 123456, "other values kept");
        NS_TEST_ASSERT_MSG_EQ(same.compare, false, "a side is one run");
        NS_TEST_ASSERT_MSG_EQ(std::string(low.values.training_priority), "low", "low side");
        NS_TEST_ASSERT_MSG_EQ(
            std::string(low.Job(0).priority_policy), "slack-adaptive", "the policy under test");
        NS_TEST_ASSERT_MSG_EQ(low.Job(0).slack_margin, 0.2, "with its values");
        // The reference is a valid run (a policy's value left set would be refused).
        same.Validate();
        // The training's ToS: same priority's 0x10, low's 0x08.
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(same.JobTos(0)), 0x10, "same: band 0");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(low.JobTos(0)), 0x08, "low: band 2");
    }
};

/**
 * An iteration far from the others is named with what happened in it: periods of 100, 102, 99,
 * 101 and 300 ms (the last 3 sd and more from the others' mean of 100.5 ms, sd 1.29 ms), with
 * two drops and three resent segments in its span and some outside it; the four alike periods
 * alone (each within 2 sd of the other three) name none.
 */
class OutlierIterationsTestCase : public TestCase
{
  public:
    OutlierIterationsTestCase()
        : TestCase("an iteration 3 sd from the others is named with its drops and resends")
    {
    }

  private:
    void
    DoRun() override
    {
        DatacenterResult run;
        JobResult& job = run.jobs.emplace_back();
        job.training.iterationPeriodsS = {0.100, 0.102, 0.099, 0.101, 0.300};
        job.training.iterationStartsS = {0.0, 0.100, 0.202, 0.301, 0.402};
        run.serverBands.dropTimesNs = {{}, {}, {150000000}};
        run.switchBands.dropTimesNs = {{}, {}, {450000000, 650000000}};
        run.retransmissionTimesNs = {{}, {}, {50000000, 402000000, 500000000, 700000000}};
        const std::vector<OutlierIteration> outliers = OutlierIterations(run);
        NS_TEST_ASSERT_MSG_EQ(outliers.size(), 1, "one outlier: the 300 ms iteration");
        const OutlierIteration& o = outliers[0];
        NS_TEST_ASSERT_MSG_EQ_TOL(o.periodS, 0.300, 1e-12, "its period");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.othersMeanS, 0.1005, 1e-12, "the others' mean");
        NS_TEST_ASSERT_MSG_EQ(o.drops.at(2), 2, "the drops in [0.402, 0.702) s");
        NS_TEST_ASSERT_MSG_EQ(o.retransmissions.at(2), 3, "the resends in its span");
        const std::string line = DescribeOutlier(o, false);
        NS_TEST_ASSERT_MSG_NE(line.find("2 packets dropped (band 2: 2), 3 TCP data segments "
                                        "resent (band 2: 3)"),
                              std::string::npos,
                              "the line names what happened: " + line);
        // The four alike: each within 2 sd of the others, nothing named.
        job.training.iterationPeriodsS.pop_back();
        job.training.iterationStartsS.pop_back();
        NS_TEST_ASSERT_MSG_EQ(OutlierIterations(run).size(), 0, "no outlier among alike periods");
    }
};

/**
 * \ingroup ddnn-tests
 * Each parameter has one default: an attribute a table row names starts at the row's default,
 * but where the test's list says why it differs.
 */
class TableDefaultsTestCase : public TestCase
{
  public:
    TableDefaultsTestCase()
        : TestCase("an attribute a table row sets defaults to the row's default, or says why not")
    {
    }

  private:
    void
    DoRun() override
    {
        // Attributes whose default is not the scenario's, and why.
        const std::map<std::string, std::string> differ
            = {{"training.profile", "a model has no profile until a program gives one"},
               {"background.cdf",
                "the same file: the attribute holds its path in ddnn's data folder, the table "
                "the name a scenario resolves there"}};
        for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
        {
            const ddnn_param* p = ddnn_scenario_param(i);
            const std::string name = std::string(p->element) + "." + p->attribute;
            if (p->sets == nullptr || differ.count(name))
            {
                continue;
            }
            const std::string target = p->sets;
            TypeId::AttributeInformation info;
            TypeId::LookupByName(target.substr(0, target.rfind("::")))
                .LookupAttributeByName(target.substr(target.rfind("::") + 2), &info);
            NS_TEST_ASSERT_MSG_EQ(info.initialValue->SerializeToString(info.checker),
                                  AsAttribute(p, ddnn_param_default(p)),
                                  name + " -> " + target);
        }
    }
};

/**
 * \ingroup ddnn-tests
 * Every row of the parameter table that names an ns-3 attribute (ddnn_param::sets) reaches
 * it: each set in turn to a value other than the table's default, then read back from the
 * object of that type the runner builds from the scenario (the job's model and TrainingJob,
 * the topology, the background helper). A row naming a type the runner does not build fails
 * here.
 */
class TableRowsReachAttributesTestCase : public TestCase
{
  public:
    TableRowsReachAttributesTestCase()
        : TestCase("every table row that names an attribute sets it on the objects built")
    {
    }

  private:
    /** A value of p other than its value in s, for the rows whose text is free. */
    static std::string
    OtherValue(const Scenario& s,
               const ddnn_param* p,
               const std::map<std::string, std::string>& free)
    {
        const std::string name = std::string(p->element) + "." + p->attribute;
        if (free.count(name))
        {
            return free.at(name);
        }
        char text[256];
        ddnn_scenario_format_job_param(&s.values, p, 0, text, sizeof text);
        const std::string current = text;
        if (p->type == DDNN_PARAM_BOOL)
        {
            return current == "true" ? "false" : "true";
        }
        if (p->choices != nullptr)
        {
            std::stringstream choices(p->choices);
            std::string choice;
            while (std::getline(choices, choice, '|'))
            {
                if (choice != current)
                {
                    return choice;
                }
            }
        }
        const double value = std::stod(current);
        const double other = value + 1 <= p->max ? value + 1 : value / 2;
        std::ostringstream os;
        os << std::setprecision(p->type == DDNN_PARAM_DOUBLE ? 6 : 17) << other;
        return os.str();
    }

    /** Attribute `attribute` of the object of type `type` the runner builds from s. */
    static std::string
    Built(const Scenario& s, const std::string& type, const std::string& attribute)
    {
        const std::map<std::string, std::string> topologies
            = {{"ns3::SingleTorHelper", "single-tor"},
               {"ns3::LeafSpineHelper", "leaf-spine"},
               {"ns3::FatTreeHelper", "fat-tree"}};
        Ptr<Object> object;
        if (type == "ns3::DnnModel")
        {
            object = LoadJobModel(s, 0);
        }
        else if (type == "ns3::TrainingJob")
        {
            object = InstallTraining(s, CreateTopology(s)).job;
        }
        else if (type == "ns3::BackgroundHelper")
        {
            object = CreateBackgroundHelper(s);
        }
        else if (type == "ns3::BackgroundTenant")
        {
            Ptr<BackgroundTenant> tenant = CreateObject<BackgroundTenant>();
            ConfigureBackgroundTenant(s, tenant);
            object = tenant;
        }
        else if (TypeId::LookupByName(type).IsChildOf(BackgroundPattern::GetTypeId()))
        {
            // the pattern the row belongs to, named by the scenario
            for (const std::string& name : BackgroundPattern::Names())
            {
                if (BackgroundPattern::Lookup(name).GetName() == type)
                {
                    Scenario chosen = s;
                    chosen.Set("background.pattern", name);
                    object = CreateBackgroundHelper(chosen)->CreatePattern();
                }
            }
        }
        else if (TypeId::LookupByName(type).IsChildOf(BufferPriorityPolicy::GetTypeId()))
        {
            // the policy the row belongs to, named by the scenario
            for (const std::string& name : BufferPriorityPolicy::Names())
            {
                if (BufferPriorityPolicy::Lookup(name).GetName() == type)
                {
                    Scenario chosen = s;
                    chosen.Set("training.priority-policy", name);
                    PointerValue policy;
                    InstallTraining(chosen, CreateTopology(chosen))
                        .job->GetAttribute("BufferPriority", policy);
                    object = policy.Get<BufferPriorityPolicy>();
                }
            }
        }
        else if (TypeId::LookupByName(type).IsChildOf(PartitionTransport::GetTypeId()))
        {
            // worker 0's transport, of the type the scenario names
            for (const std::string& name : PartitionTransport::Names())
            {
                if (PartitionTransport::Lookup(name).GetName() == type)
                {
                    Scenario chosen = s;
                    chosen.Set("training.transport", name);
                    object = InstallTraining(chosen, CreateTopology(chosen))
                                 .job->GetRank(0)
                                 ->GetTransport();
                }
            }
        }
        else if (type == "ns3::AggregatingSwitch")
        {
            // the switch a job aggregating in the network joins
            Scenario chosen = s;
            chosen.Set("training.collective", "in-network-aggregation");
            Ptr<ServerTopology> network = CreateTopology(chosen);
            InstallTraining(chosen, network);
            object
                = AggregationHelper().Install(DynamicCast<SingleTorHelper>(network)->GetSwitch());
        }
        else if (topologies.count(type))
        {
            object = PlanTopology(s, topologies.at(type), s.values.workers);
        }
        else
        {
            return "no object of type " + type + " built by the runner";
        }
        TypeId::AttributeInformation info;
        object->GetInstanceTypeId().LookupAttributeByName(attribute, &info);
        Ptr<AttributeValue> value = info.checker->Create();
        object->GetAttribute(attribute, *value);
        Simulator::Destroy();
        return value->SerializeToString(info.checker);
    }

    void
    DoRun() override
    {
        const std::map<std::string, std::string> free = {
            {"training.profile", ddnntest::WriteProfile("rows.csv", {100000, 100000})},
            {"training.collective", "parameter-server"},
            {"training.fallback", "parameter-server"},
            {"topology.impaired-servers", "1"},
            {"background.cdf", ddnntest::WriteTempFile("rows-cdf.csv", "0,0\n100000,1\n")},
            {"background.schedule", ddnntest::WriteTempFile("rows-schedule.csv", "0,0,1,100,0\n")},
            {"training.buffer-tos-map", "0=8"},
            {"training.chakra-trace", DdnnDataPath("chakra/allreduce-4")},
            {"training.oracle-reference",
             ddnntest::WriteTempFile("rows-oracle.csv",
                                     "buffer,end_s,deadline_s\n0,0.2,0.1\n1,0.2,0.3\n")}};
        size_t rows = 0;
        for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
        {
            const ddnn_param* p = ddnn_scenario_param(i);
            if (p->sets == nullptr)
            {
                continue;
            }
            ++rows;
            Scenario s;
            s.values.workers = 6; // room for a dedicated parameter server
            s.values.jobs[0].workers = 4;
            s.Set("training.profile", ddnntest::WriteProfile("rows-base.csv", {50000, 50000}));
            s.values.jobs[0].fusion_bytes = 50000;
            s.values.jobs[0].compute_ms = 1;
            s.values.jobs[0].iterations = 1;
            s.Set("training.collective", "parameter-server"); // takes either host placement
            const std::string name = std::string(p->element) + "." + p->attribute;
            const std::string value = OtherValue(s, p, free);
            s.Set(name, value);
            if (name == "training.chakra-trace")
            {
                // a trace is the whole model: neither a profile nor a compute time besides it
                const Scenario defaults;
                s.Set("training.profile", defaults.Job(0).profile);
                s.values.jobs[0].compute_ms = 0;
            }
            if (name == "training.distribution")
            {
                // multicast sends a dedicated server's updates
                s.Set("training.parameter-server-hosts", "dedicated");
            }
            const std::string target = p->sets;
            const std::string type = target.substr(0, target.rfind("::"));
            const std::string attribute = target.substr(target.rfind("::") + 2);
            const std::string expected = AsAttribute(p, value);
            NS_TEST_ASSERT_MSG_EQ(Built(s, type, attribute), expected, name + " -> " + target);
        }
        NS_TEST_ASSERT_MSG_GT(rows, 15, "the rows that name an attribute");
    }
};

/**
 * \ingroup ddnn-tests
 * The cost estimate's packet count from first principles: a ring of 4 workers over one
 * 1 MB buffer sends 2 (N - 1) MB per iteration in all; each payload byte is 1/segment of a
 * segment with 1/delayed-ACK-count of an ACK, over the single ToR's 2 links; the background
 * offers its flow rate times the mean flow size per server; the ideal transport sends no
 * training packet. With one cost per crossing in the table, a run costs the setup, the
 * workers' iterations and its crossings at that cost.
 */
class PacketLoadTestCase : public TestCase
{
  public:
    PacketLoadTestCase()
        : TestCase("the estimate counts a run's packets from its bytes and prices them")
    {
    }

  private:
    void
    DoRun() override
    {
        Scenario s;
        s.values.workers = 4;
        s.Set("training.profile", WriteProfile("estimate.csv", {1000000}));
        s.values.jobs[0].fusion_bytes = 1000000;
        s.values.jobs[0].compute_ms = 10;
        s.values.jobs[0].iterations = 3;
        s.Set("training.collective", "ring-allreduce");
        s.Set("training.transport", "tcp");
        s.values.flow_rate = 5;
        s.values.duration_s = 2;
        const TransportSettings t = s.Transport();
        const double perByte = 2 * (1 + 1.0 / t.delAckCount) / t.segmentSize;
        Ptr<WebSearchPattern> web = CreateObject<WebSearchPattern>(); // the scenario's CDF
        const double background = 5 * 4 * web->GetMeanFlowBytes() * perByte;

        PacketLoad load = PacketLoadOf(s);
        NS_TEST_ASSERT_MSG_EQ_TOL(load.backgroundPerS, background, 1e-9 * background, "");
        NS_TEST_ASSERT_MSG_EQ_TOL(load.trainingPerIteration[0], 6e6 * perByte, 1e-3, "");
        NS_TEST_ASSERT_MSG_EQ(load.IterationsOfRun(s, 0), 3, "at most its iterations");
        NS_TEST_ASSERT_MSG_EQ_TOL(load.OfRun(s), 2 * background + 3 * 6e6 * perByte, 1e-3, "");

        // One cost per crossing at three loads: the run is priced at it.
        const double perCrossing = 2e-6;
        std::vector<CalibrationPoint> table;
        for (const auto& [rcp, flows] :
             std::vector<std::pair<double, double>>{{1, 1}, {4, 1}, {1, 100}})
        {
            CalibrationPoint p{"tuned", 8, rcp, flows, perCrossing * 1e6};
            p.crossingsPerSimS = 1e6;
            table.push_back(p);
        }
        RunEstimate e = EstimateRun(table, s);
        NS_TEST_ASSERT_MSG_EQ_TOL(e.cpuS,
                                  kRunSetupCpuS + kWorkerIterationCpuS * 3 * 4
                                      + perCrossing * load.OfRun(s),
                                  1e-9,
                                  "");

        // Lossy links: each packet costs 1 + k p^2 as much, p the path's loss over two links.
        s.values.loss_rate = 0.05;
        const double pathLoss = 1 - 0.95 * 0.95;
        NS_TEST_ASSERT_MSG_EQ_TOL(EstimateRun(table, s).cpuS,
                                  kRunSetupCpuS + kWorkerIterationCpuS * 3 * 4
                                      + perCrossing * (1 + kLossCostFactor * pathLoss * pathLoss)
                                            * load.OfRun(s),
                                  1e-9,
                                  "");
        s.values.loss_rate = 0;
        // A profile the table lacks: priced as the costliest it has, and said so.
        s.SetTransport(TransportSettings::Profile("linux"));
        RunEstimate other = EstimateRun(table, s);
        NS_TEST_ASSERT_MSG_EQ(other.extrapolated, true, "");
        NS_TEST_ASSERT_MSG_EQ(
            (other.why.find("costliest, tuned") != std::string::npos), true, other.why);
        s.SetTransport(TransportSettings::Profile("tuned"));

        s.Set("training.transport", "ideal");
        NS_TEST_ASSERT_MSG_EQ(PacketLoadOf(s).trainingPerIteration[0], 0, "no packet");
        NS_TEST_ASSERT_MSG_EQ_TOL(EstimateRun(table, s).cpuS,
                                  kRunSetupCpuS + kWorkerIterationCpuS * 3 * 4
                                      + perCrossing * 2 * background,
                                  1e-9,
                                  "");
    }
};

class ScenarioRunnerTestSuite : public TestSuite
{
  public:
    ScenarioRunnerTestSuite()
        : TestSuite("ddnn-scenario-runner", Type::SYSTEM)
    {
        AddTestCase(new ComputeBoundTestCase);
        AddTestCase(new StragglerTestCase);
        AddTestCase(new ScenarioWithoutComputeOrFusionTestCase);
        AddTestCase(new ScenarioParameterServerHostsTestCase);
        AddTestCase(new TransportProfileBandsTestCase);
        AddTestCase(new FlowBookkeepingTestCase);
        AddTestCase(new SeveralJobsScenarioTestCase);
        AddTestCase(new BackgroundBadInputTestCase);
        AddTestCase(new ScenarioOnFabricTestCase);
        AddTestCase(new TableRowsReachAttributesTestCase);
        AddTestCase(new TableDefaultsTestCase);
        AddTestCase(new ComparedSidesTestCase);
        AddTestCase(new OutlierIterationsTestCase);
        AddTestCase(new Ns3DefaultOwnersTestCase);
        AddTestCase(new TableRangesAgreeTestCase);
        AddTestCase(new PacketLoadTestCase);
    }
};

static ScenarioRunnerTestSuite g_scenarioRunnerTestSuite; //!< registers the suite
