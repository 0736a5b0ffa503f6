/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The registries the scenarios choose from: the queue discs (EgressQueue), the transports
 * (PartitionTransport) and the topologies (ServerTopology) hold the choices the parameter table
 * (and so the schema, which unit-scenario-params checks against the table) and --help offer, an
 * unknown name is an error naming the choices, and an implementation defined here, registered by
 * one line, runs through the runner without any edit to it. The collectives (the C core's
 * registry, ddnn_collective_register) too: one defined here runs by its name through
 * TrainingHelper, over the ideal transport and over TCP, and from a scenario file; and so does
 * a background pattern (BackgroundPattern::Register).
 */
#include "ddnn-test-util.h"
#include "star-collective.h"

#include "../examples/runner/runner.h"

#include "../examples/runner/ddnn-scenario-params.h"
#include "ns3/ddnn-module.h"
#include "ns3/enum.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/** How many times the test-only queue disc was built (once per EgressQueue::Install). */
uint32_t g_testQueueBuilds = 0;

/** A test-only queue disc: one FIFO band for every ToS. */
const EgressQueue::Kind g_testQueue = EgressQueue::Register(
    {"test-fifo", "TestFifo", {0x00}, [](const EgressQueue& queue, TrafficControlHelper& tch) {
         ++g_testQueueBuilds;
         tch.SetRootQueueDisc(
             "ns3::FifoQueueDisc",
             "MaxSize",
             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue.limitPackets)));
     }});

/** A test-only transport: the ideal transport under a name of its own, counting its objects. */
class RegistryTestTransport : public IdealPartitionTransport
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RegistryTestTransport")
                                .SetParent<IdealPartitionTransport>()
                                .AddConstructor<RegistryTestTransport>();
        return tid;
    }

    RegistryTestTransport() { ++created; }

    static uint32_t created;
};

uint32_t RegistryTestTransport::created = 0;

[[maybe_unused]] const bool g_testTransport
    = PartitionTransport::Register("test-ideal", &RegistryTestTransport::GetTypeId);

/** A test-only topology: the single ToR under a name of its own, counting what it builds. */
class RegistryTestTopology : public SingleTorHelper
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RegistryTestTopology")
                                .SetParent<SingleTorHelper>()
                                .AddConstructor<RegistryTestTopology>();
        return tid;
    }

    using SingleTorHelper::Create;

    void
    Create() override
    {
        ++created;
        SingleTorHelper::Create();
    }

    static uint32_t created;
};

uint32_t RegistryTestTopology::created = 0;

[[maybe_unused]] const bool g_testTopology
    = ServerTopology::Register("test-rack", &RegistryTestTopology::GetTypeId);

/** A test-only background pattern: at Start, each server sends Bytes to the next one. */
class RegistryTestPattern : public BackgroundPattern
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RegistryTestPattern")
                                .SetParent<BackgroundPattern>()
                                .AddConstructor<RegistryTestPattern>()
                                .AddAttribute("Bytes",
                                              "Each flow's size.",
                                              UintegerValue(20000),
                                              MakeUintegerAccessor(&RegistryTestPattern::m_bytes),
                                              MakeUintegerChecker<uint64_t>(1));
        return tid;
    }

    std::vector<ddnn_flow>
    MakeFlows(uint32_t servers, Time start, Time) const override
    {
        std::vector<ddnn_flow> flows;
        for (uint32_t i = 0; i < servers; ++i)
        {
            flows.push_back(
                {i, i, (i + 1) % servers, m_bytes, static_cast<uint64_t>(start.GetNanoSeconds())});
        }
        return flows;
    }

    double
    GetOfferedBytesPerSecond(uint32_t, Time start, Time stop) const override
    {
        return m_bytes / (stop - start).GetSeconds();
    }

  private:
    uint64_t m_bytes{0};
};

[[maybe_unused]] const bool g_testPattern
    = BackgroundPattern::Register("test-ring", &RegistryTestPattern::GetTypeId);

const int g_testCollective = ddnn_collective_register(ddnntest::star::Ops());

/** The names registered by this file, which the parameter table does not offer. */
const std::set<std::string> testOnly{
    "test-fifo", "test-ideal", "test-rack", "test-star", "test-ring"};

/** A parameter's choices ("a|b|c") in the parameter table. */
std::vector<std::string>
TableChoices(const std::string& name)
{
    std::vector<std::string> choices;
    const ddnn_param* p = ddnn_scenario_param_named(name.c_str());
    std::istringstream in(p && p->choices ? p->choices : "");
    for (std::string choice; std::getline(in, choice, '|');)
    {
        choices.push_back(choice);
    }
    return choices;
}

/** `names` without this file's test-only ones. */
std::vector<std::string>
Shipped(std::vector<std::string> names)
{
    names.erase(std::remove_if(names.begin(),
                               names.end(),
                               [](const std::string& n) { return testOnly.count(n) > 0; }),
                names.end());
    return names;
}

std::string
Joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
    {
        text += (text.empty() ? "" : "|") + name;
    }
    return text;
}

/**
 * The table's choices (and so the schema's, and --help's) are the registries' names: queue
 * discs in registration order, transports as a set, collectives in the C registry's order.
 */
class ChoicesTestCase : public TestCase
{
  public:
    ChoicesTestCase()
        : TestCase("the parameter table offers what the registries hold")
    {
    }

  private:
    void
    DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Joined(TableChoices("topology.queue-disc")),
                              Joined(Shipped(EgressQueue::Names())),
                              "queue discs");
        std::vector<std::string> transports = TableChoices("training.transport");
        std::sort(transports.begin(), transports.end());
        NS_TEST_ASSERT_MSG_EQ(
            Joined(transports), Joined(Shipped(PartitionTransport::Names())), "transports");
        std::vector<std::string> topologies = TableChoices("topology.kind");
        std::sort(topologies.begin(), topologies.end());
        NS_TEST_ASSERT_MSG_EQ(
            Joined(topologies), Joined(Shipped(ServerTopology::Names())), "topologies");
        std::vector<std::string> collectives;
        for (size_t i = 0; i < ddnn_collective_registered(); ++i)
        {
            collectives.push_back(ddnn_collective_at(i)->name);
        }
        collectives = Shipped(collectives);
        NS_TEST_ASSERT_MSG_EQ(
            Joined(TableChoices("training.collective")), Joined(collectives), "collectives");
        std::vector<std::string> patterns = TableChoices("background.pattern");
        std::sort(patterns.begin(), patterns.end());
        NS_TEST_ASSERT_MSG_EQ(
            Joined(patterns), Joined(Shipped(BackgroundPattern::Names())), "background patterns");
        // The QueueDisc attribute takes every registered queue disc, the test-only one too.
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("QueueDisc", StringValue("TestFifo"));
        StringValue kind;
        network->GetAttribute("QueueDisc", kind);
        NS_TEST_ASSERT_MSG_EQ(kind.Get(), "TestFifo", "the attribute by its registered name");
        NS_TEST_ASSERT_MSG_EQ(EgressQueue::Bands(g_testQueue), 1, "its one band");
    }
};

/** An unknown or twice-registered name is an error naming what was written and the choices. */
class UnknownNameTestCase : public TestCase
{
  public:
    UnknownNameTestCase()
        : TestCase("unknown names: one line naming the value and the registered choices")
    {
    }

  private:
    void
    DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] { EgressQueue::FromScenario("red"); }),
            "queue disc: expected one of pfifo-fast, prio-red, prio4, "
            "weighted-bands, least-slack, least-slack-hybrid, test-fifo, got 'red'",
            "queue disc");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] { PartitionTransport::Lookup("udp"); }),
                              "transport: expected one of ideal, tcp, test-ideal, got 'udp'",
                              "transport");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] { TransportTypeOf("udp"); }),
                              "transport: expected one of ideal, tcp, test-ideal, got 'udp'",
                              "the runner's transport");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] { ServerTopology::Lookup("ring"); }),
                              "topology: expected one of fat-tree, leaf-spine, single-tor, "
                              "test-rack, got 'ring'",
                              "topology");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] {
                                  PartitionTransport::Register("tcp",
                                                               &IdealPartitionTransport::GetTypeId);
                              }),
                              "transport 'tcp': a transport of that name is already registered",
                              "transport registered twice");
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] {
                EgressQueue::Register(
                    {"prio4", "Prio4Again", {0x00}, EgressQueue::Get(EgressQueue::PRIO4).build});
            }),
            "queue disc 'prio4' (Prio4Again): a queue disc of that name is already registered",
            "queue disc registered twice");
    }
};

/** A scenario's one job, run end to end (RunTraining): its summary. */
TrainingSummary
RunBuilt(const Scenario& s)
{
    return RunTraining(s, "").summary;
}

/**
 * The test-only topology, queue disc and transport, named in a scenario file and run by the
 * runner (RunTraining) with no edit to it: two workers, one iteration, every byte of the ring
 * allreduce through the test's FIFO over TCP, then through its transport; then the test-only
 * collective and background pattern, each named in a file of its own. The parameter
 * table's choices (what --help lists and a file may name) are the registries' names.
 */
class TestOnlyRunTestCase : public TestCase
{
  public:
    TestOnlyRunTestCase()
        : TestCase("a test-only topology, queue disc, transport, collective and background "
                   "pattern run from scenario files")
    {
    }

  private:
    void
    DoRun() override
    {
        const std::string profile = ddnntest::WriteProfile("registry.csv", {100000, 100000});
        const std::string path = ddnntest::WriteTempFile(
            "registry.xml",
            "<scenario version=\"1\"><topology workers=\"2\" kind=\"test-rack\" "
            "queue-disc=\"test-fifo\"/><training profile=\""
                + profile
                + "\" fusion-bytes=\"100000\" compute-ms=\"1\" iterations=\"1\" "
                  "transport=\"tcp\"/><priority training=\"same\"/><run duration-s=\"1\" "
                  "warmup-s=\"0\" "
                  "cooldown-s=\"0\"/></scenario>");
        Scenario s;
        LoadScenarioFile(path, s); // the registered names are the table's choices
        auto listed = [](const char* name) {
            std::set<std::string> names;
            std::stringstream choices(ddnn_scenario_param_named(name)->choices);
            for (std::string choice; std::getline(choices, choice, '|');)
            {
                names.insert(choice);
            }
            return names;
        };
        auto asSet = [](const std::vector<std::string>& names) {
            return std::set<std::string>(names.begin(), names.end());
        };
        std::vector<std::string> collectives;
        for (size_t i = 0; i < ddnn_collective_registered(); ++i)
        {
            collectives.emplace_back(ddnn_collective_at(i)->name);
        }
        const bool topologies = listed("topology.kind") == asSet(ServerTopology::Names());
        const bool queueDiscs = listed("topology.queue-disc") == asSet(EgressQueue::Names());
        const bool transports = listed("training.transport") == asSet(PartitionTransport::Names());
        const bool collectivesListed = listed("training.collective") == asSet(collectives);
        NS_TEST_ASSERT_MSG_EQ(topologies, true, "the table's topologies are the registry's");
        NS_TEST_ASSERT_MSG_EQ(queueDiscs, true, "its queue discs");
        NS_TEST_ASSERT_MSG_EQ(transports, true, "its transports");
        NS_TEST_ASSERT_MSG_EQ(collectivesListed, true, "its collectives");
        // A name no registry holds is refused where the file names it, with the choices.
        const std::string ring = ddnntest::ErrorOf([&] {
            Scenario bad;
            LoadScenarioFile(
                ddnntest::WriteTempFile(
                    "ring.xml",
                    "<scenario version=\"1\"><topology "
                    "workers=\"2\" kind=\"ring\"/><training/>"
                    "<run duration-s=\"1\" warmup-s=\"0\" cooldown-s=\"0\"/></scenario>"),
                bad);
        });
        const bool named = ring.find("expected one of single-tor, leaf-spine, fat-tree, "
                                     "test-rack, got 'ring'")
                           != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, ring);
        NS_TEST_ASSERT_MSG_EQ(s.GetServerCount(), 2, "the test topology's servers, from its own");
        NS_TEST_ASSERT_MSG_EQ(s.GetPathLinks(), 2, "and its paths");
        const TrainingSummary tcp = RunBuilt(s);
        NS_TEST_ASSERT_MSG_EQ(RegistryTestTopology::created, 1, "the test's topology built");
        NS_TEST_ASSERT_MSG_GT(g_testQueueBuilds, 0, "the test's queue disc built");
        NS_TEST_ASSERT_MSG_EQ(tcp.iterationsCompleted, 1, "over TCP through its FIFO");
        // ring of 2: each worker sends 2(N-1)/N = 1 x each buffer
        NS_TEST_ASSERT_MSG_EQ(tcp.bytesPerWorkerPerIteration, 200000, "every byte");

        s.Set("training.transport", "ideal");
        const TrainingSummary ideal = RunBuilt(s);
        s.Set("training.transport", "test-ideal");
        const TrainingSummary test = RunBuilt(s);
        NS_TEST_ASSERT_MSG_EQ(RegistryTestTransport::created, 2, "one test transport a worker");
        NS_TEST_ASSERT_MSG_EQ(test.iterationsCompleted, 1, "its iteration");
        NS_TEST_ASSERT_MSG_GT(test.allreducesMeasured, 0, "allreduces measured");
        NS_TEST_ASSERT_MSG_EQ(
            test.allreducesMeasured, ideal.allreducesMeasured, "as many as the ideal transport's");
        NS_TEST_ASSERT_MSG_EQ(test.allreduceTimeMeanS,
                              ideal.allreduceTimeMeanS,
                              "the ideal transport's time: given its rate and latency alike");

        // The test-only collective, named by a file: N = 3 workers, model 200,000 bytes; rank 0
        // sends (N-1) x model, the others the model once: a mean of 4/3 x model a worker.
        Scenario star;
        LoadScenarioFile(ddnntest::WriteTempFile(
                             "star.xml",
                             "<scenario version=\"1\"><topology workers=\"3\"/><training profile=\""
                                 + profile
                                 + "\" fusion-bytes=\"100000\" compute-ms=\"1\" iterations=\"1\" "
                                   "transport=\"tcp\" collective=\"test-star\"/><priority "
                                   "training=\"same\"/><run duration-s=\"1\" warmup-s=\"0\" "
                                   "cooldown-s=\"0\"/></scenario>"),
                         star);
        const TrainingSummary starRun = RunBuilt(star);
        NS_TEST_ASSERT_MSG_EQ(starRun.iterationsCompleted, 1, "the star's iteration");
        NS_TEST_ASSERT_MSG_EQ_TOL(starRun.bytesPerWorkerPerIteration,
                                  4.0 / 3 * 200000,
                                  1e-6,
                                  "every byte of the star, over TCP");
        NS_TEST_ASSERT_MSG_EQ_TOL(starRun.expectedBytesPerWorkerPerIteration,
                                  4.0 / 3 * 200000,
                                  1e-6,
                                  "as its bytes_sent_by says");

        // The test-only background pattern, named by a file: 3 servers, each sending one flow
        // of 20,000 bytes (a small flow) to the next at time 0, beside the job.
        Scenario web;
        LoadScenarioFile(
            ddnntest::WriteTempFile(
                "ring-pattern.xml",
                "<scenario version=\"1\"><topology workers=\"3\"/><training profile=\"" + profile
                    + "\" fusion-bytes=\"100000\" compute-ms=\"1\" transport=\"ideal\"/>"
                      "<background pattern=\"test-ring\"/><run duration-s=\"0.02\" "
                      "warmup-s=\"0\" cooldown-s=\"0.001\"/></scenario>"),
            web);
        const std::vector<ddnn_flow> flows = MakeBackgroundFlows(web);
        const DatacenterResult pattern = RunDatacenter(web.ComparedAt("same"), flows, "");
        NS_TEST_ASSERT_MSG_EQ(pattern.flowsScheduled, 3, "one flow a server");
        NS_TEST_ASSERT_MSG_EQ(pattern.fct[DDNN_FLOWS_ALL].completed, 3, "every flow completes");
        NS_TEST_ASSERT_MSG_EQ_TOL(pattern.utilBackgroundExpected,
                                  20000 * 8 / 0.02 / 10e9,
                                  1e-12,
                                  "the pattern's offered load over the run");
    }
};

/**
 * The test-only collective, registered by one line, chosen by name through TrainingHelper and
 * run over the ideal transport and over TCP: N = 3 workers, two buffers (S = 1,000,000 and
 * 30,001 bytes), two iterations. Per iteration rank 0 sends and receives (N-1) x model bytes,
 * every other rank the model once each way. On the ideal transport (10 Gbit/s, 20 us a
 * transfer) a buffer's collective takes S/rate for the pushes (each rank's own link) plus
 * (N-1) S/rate for rank 0's returns one after the other, plus two latencies.
 */
class TestCollectiveRunTestCase : public TestCase
{
  public:
    TestCollectiveRunTestCase()
        : TestCase("a test-only collective registered by one line runs by its name")
    {
    }

  private:
    void
    DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(g_testCollective, DDNN_OK, "registered");
        NS_TEST_ASSERT_MSG_EQ(
            ddnn_collective_register(ddnntest::star::Ops()), DDNN_ERR_DUPLICATE, "once");
        const uint32_t n = 3;
        const uint64_t model = 1000000 + 30001;
        const std::string profile = ddnntest::WriteProfile("star.csv", {1000000, 30001});
        for (const std::string transport : {"ideal", "tcp"})
        {
            ddnntest::Job j(n, profile, 1000000, MilliSeconds(1));
            j.helper.SetAttribute("Iterations", UintegerValue(2));
            j.helper.SetAttribute("Collective", StringValue("test-star"));
            if (transport == "ideal")
            {
                j.helper.SetTransport("ns3::IdealPartitionTransport");
                j.helper.SetAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
                j.helper.SetAttribute("StepLatency", TimeValue(MicroSeconds(20)));
            }
            j.Install();
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(j.job->IsFinished(), true, transport << ": job finished");
            uint64_t sent = 0;
            uint64_t received = 0;
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint64_t perIteration = r == 0 ? (n - 1) * model : model;
                for (uint32_t it = 0; it < 2; ++it)
                {
                    NS_TEST_ASSERT_MSG_EQ(j.job->GetWorker(r)->GetBytesSent(it),
                                          perIteration,
                                          transport << ": worker " << r << ", iteration " << it);
                }
                NS_TEST_ASSERT_MSG_EQ(j.job->GetWorker(r)->GetBytesReceived(),
                                      2 * perIteration,
                                      transport << ": worker " << r << " receives as much");
                NS_TEST_ASSERT_MSG_EQ(j.job->GetExpectedBytesSent(r, model),
                                      perIteration,
                                      "the table's bytes_sent_by");
                sent += j.job->GetWorker(r)->GetBytesSent(0) + j.job->GetWorker(r)->GetBytesSent(1);
                received += j.job->GetWorker(r)->GetBytesReceived();
            }
            NS_TEST_ASSERT_MSG_EQ(received, sent, transport << ": every byte sent arrives");
            if (transport == "ideal")
            {
                const std::vector<TrainingJob::Record> records = j.job->GetRecords();
                NS_TEST_ASSERT_MSG_EQ(records.size(), 4, "two buffers, two iterations");
                for (const TrainingJob::Record& record : records)
                {
                    const Time transfer = DataRate("10Gbps").CalculateBytesTxTime(
                        j.job->GetModel()->GetBuffer(record.buffer).bytes);
                    // the pushes, then the N-1 returns one after the other, two latencies
                    NS_TEST_ASSERT_MSG_EQ(static_cast<int64_t>(record.end_ns - record.start_ns),
                                          (transfer * n + MicroSeconds(40)).GetNanoSeconds(),
                                          "buffer " << record.buffer);
                }
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] {
                ddnntest::Job j(
                    2, ddnntest::WriteProfile("tree.csv", {1000}), 1000, MilliSeconds(1));
                j.helper.SetAttribute("Collective", StringValue("tree"));
                j.Install();
            }),
            "ns3::TrainingJob::Collective: unknown collective 'tree', expected "
            "one of: ring-allreduce, parameter-server, in-network-aggregation, test-star",
            "an unknown name lists the registered ones");
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::ErrorOf([] {
                ddnntest::Job j(
                    3, ddnntest::WriteProfile("star-ps.csv", {1000}), 1000, MilliSeconds(1));
                j.helper.SetAttribute("Collective", StringValue("test-star"));
                j.helper.SetAttribute("ParameterServerHosts", EnumValue(TrainingJob::DEDICATED));
                j.helper.Install(NodeContainer(j.network->GetServer(0), j.network->GetServer(1)),
                                 NodeContainer(j.network->GetServer(2)));
            }),
            "ns3::TrainingJob::ParameterServerHosts: Dedicated, expected "
            "Collective parameter-server, got 'test-star'",
            "it has no server ranks of its own");
    }
};

class RegistryTestSuite : public TestSuite
{
  public:
    RegistryTestSuite()
        : TestSuite("ddnn-registries", Type::SYSTEM)
    {
        AddTestCase(new ChoicesTestCase);
        AddTestCase(new UnknownNameTestCase);
        AddTestCase(new TestOnlyRunTestCase);
        AddTestCase(new TestCollectiveRunTestCase);
    }
};

RegistryTestSuite g_registryTestSuite;

} // namespace
