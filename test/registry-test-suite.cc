/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The registries the scenarios choose from: the queue discs (EgressQueue), the transports
 * (PartitionTransport) and the topologies (ServerTopology) hold the choices the parameter table
 * (and so the schema, which unit-scenario-params checks against the table) and --help offer, an
 * unknown name is an error naming the choices, and an implementation defined here, registered by
 * one line, runs through the runner without any edit to it.
 */
#include "../model/ddnn-collective.h"
#include "ddnn-test-util.h"

#include "../examples/runner/runner.h"

#include "ns3/ddnn-module.h"
#include "ns3/ddnn-scenario-params.h"
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

/** The names registered by this file, which the parameter table does not offer. */
const std::set<std::string> testOnly{"test-fifo", "test-ideal", "test-rack"};

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
        NS_TEST_ASSERT_MSG_EQ(
            Joined(TableChoices("training.collective")), Joined(collectives), "collectives");
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
        NS_TEST_ASSERT_MSG_EQ(ddnntest::ErrorOf([] { EgressQueue::FromScenario("red"); }),
                              "queue disc: expected one of pfifo-fast, prio-red, prio4, "
                              "test-fifo, got 'red'",
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
 * allreduce through the test's FIFO over TCP, then through its transport. The parameter
 * table's choices (what --help lists and a file may name) are the registries' names.
 */
class TestOnlyRunTestCase : public TestCase
{
  public:
    TestOnlyRunTestCase()
        : TestCase("a test-only topology, queue disc and transport run from a scenario file")
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
    }
};

RegistryTestSuite g_registryTestSuite;

} // namespace
