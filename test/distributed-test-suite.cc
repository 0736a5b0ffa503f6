/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a distributed (MPI) run needs of the module, checked in one process: the fabrics'
 * partition into ranks (system ids) and its errors, a link between ranks without delay, a
 * job spread over ranks with what cannot cross them, applications on this process's nodes
 * only, background flows a sink knows by their source port, and the recorders' and meters'
 * states that the processes exchange after the run, merged back into the same figures.
 * The run itself on 1 and 2 ranks is test/check-mpi-ranks.sh (./ddnn mpi check).
 */
#include "ddnn-test-util.h"

#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

/** A leaf-spine of `leaves` racks of 2 servers and 3 spines over `ranks` ranks. */
Ptr<LeafSpineHelper>
SplitLeafSpine(uint32_t leaves, uint32_t ranks, const std::string& unitRanks = "")
{
    Ptr<LeafSpineHelper> fabric = CreateObject<LeafSpineHelper>();
    fabric->SetAttribute("Leaves", UintegerValue(leaves));
    fabric->SetAttribute("ServersPerLeaf", UintegerValue(2));
    fabric->SetAttribute("Spines", UintegerValue(3));
    fabric->SetAttribute("Ranks", UintegerValue(ranks));
    fabric->SetAttribute("UnitRanks", StringValue(unitRanks));
    return fabric;
}

} // namespace

/**
 * \ingroup ddnn-tests
 * Leaf-spine: each rack (leaf and servers) on one rank, in consecutive blocks, the spines
 * round robin; UnitRanks overrides the blocks. Fat tree: by pod, cores round robin. More
 * ranks than racks, a UnitRanks that leaves a rack out, names a rank past Ranks or gives a
 * rank nothing, and a link between ranks without delay: one line each.
 */
class PartitionTestCase : public TestCase
{
  public:
    PartitionTestCase()
        : TestCase("racks and pods to ranks, and what a partition refuses")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<LeafSpineHelper> fabric = SplitLeafSpine(4, 2);
        fabric->Create();
        for (uint32_t i = 0; i < 8; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->GetServer(i)->GetSystemId(), i / 4, "server " << i);
        }
        for (uint32_t leaf = 0; leaf < 4; ++leaf)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->GetLeaf(leaf)->GetSystemId(), leaf / 2, "leaf " << leaf);
        }
        for (uint32_t spine = 0; spine < 3; ++spine)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->GetSpine(spine)->GetSystemId(), spine % 2, "spine");
        }
        Simulator::Destroy();

        fabric = SplitLeafSpine(4, 2, "1 0 1 0");
        fabric->Create();
        for (uint32_t leaf = 0; leaf < 4; ++leaf)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->GetLeaf(leaf)->GetSystemId(), 1 - leaf % 2, "leaf");
            NS_TEST_ASSERT_MSG_EQ(
                fabric->GetServer(2 * leaf + 1)->GetSystemId(), 1 - leaf % 2, "its servers");
        }
        Simulator::Destroy();

        Ptr<FatTreeHelper> tree = CreateObject<FatTreeHelper>();
        tree->SetAttribute("K", UintegerValue(4));
        tree->SetAttribute("Ranks", UintegerValue(2));
        tree->Create();
        for (uint32_t i = 0; i < 16; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(tree->GetServer(i)->GetSystemId(), i / 8, "server by pod");
        }
        Simulator::Destroy();

        const std::vector<std::pair<Ptr<LeafSpineHelper>, std::string>> refused{
            {SplitLeafSpine(2, 3), "LeafSpineHelper::Ranks: 3 ranks, expected at most the 2 racks"},
            {SplitLeafSpine(4, 2, "0 1 1"), "UnitRanks: '0 1 1' names 3 racks, expected the rank"},
            {SplitLeafSpine(4, 2, "0 1 2 1"),
             "UnitRanks: '2' in '0 1 2 1', expected the rank (0..1)"},
            {SplitLeafSpine(4, 2, "0 0 0 0"), "gives rank 1 no rack"},
        };
        for (const auto& [helper, expected] : refused)
        {
            const std::string error = ddnntest::ErrorOf([&] { helper->Create(); });
            NS_TEST_ASSERT_MSG_EQ(ddnntest::Contains(error, expected), true, error);
            Simulator::Destroy();
        }
        fabric = SplitLeafSpine(2, 2);
        fabric->SetAttribute("FabricDelay", TimeValue(Seconds(0)));
        const std::string error = ddnntest::ErrorOf([&] { fabric->Create(); });
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::Contains(error, "has no delay, expected a delay above 0 on a link between"),
            true,
            error);
        Simulator::Destroy();
        fabric = SplitLeafSpine(2, 1); // one process: a link without delay is the user's choice
        fabric->SetAttribute("FabricDelay", TimeValue(Seconds(0)));
        fabric->Create();
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * A job over two racks of two ranks (this process is rank 0): its workers and the background
 * tenant's applications go on rank 0's servers only, the job still knows every worker's node;
 * the instant syncer, a policy that decides from the collective's progress and dedicated
 * servers are refused in one line each.
 */
class SpreadJobTestCase : public TestCase
{
  public:
    SpreadJobTestCase()
        : TestCase("a job spread over ranks: local applications, and what it refuses")
    {
    }

  private:
    /** A 4-worker job with `syncer` and `policy` on a fresh 2-rack fabric over 2 ranks. */
    static Ptr<TrainingJob>
    Install(const std::string& syncer, Ptr<BufferPriorityPolicy> policy)
    {
        Ptr<LeafSpineHelper> fabric = SplitLeafSpine(2, 2);
        fabric->Create();
        TrainingHelper helper;
        helper.SetAttribute("ProfileFile",
                            StringValue(ddnntest::WriteProfile("spread.csv", {1000000})));
        helper.SetAttribute("Syncer", StringValue(syncer));
        helper.SetAttribute("BufferPriority", PointerValue(policy));
        helper.Install(fabric);
        return helper.GetJob();
    }

    void
    DoRun() override
    {
        Ptr<TrainingJob> job = Install("Network", CreateObject<StaticPriority>());
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        for (uint32_t i = 0; i < 4; ++i)
        {
            Ptr<Node> node = job->GetWorker(i)->GetNode();
            NS_TEST_ASSERT_MSG_EQ(node->GetSystemId(), i / 2, "worker " << i << "'s rank");
            // Rank 0 (this process): the worker; rank 1: no application.
            NS_TEST_ASSERT_MSG_EQ(node->GetNApplications(), (i < 2 ? 1u : 0u), "server " << i);
        }
        background->Install(NodeContainer(job->GetWorker(0)->GetNode(),
                                          job->GetWorker(1)->GetNode(),
                                          job->GetWorker(2)->GetNode(),
                                          job->GetWorker(3)->GetNode()));
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(i)->GetNode()->GetNApplications(),
                                  (i < 2 ? 3u : 0u),
                                  "and a background sender and sink on rank 0's " << i);
        }
        Simulator::Destroy();
        const std::string instant = ddnntest::ErrorOf([] { Install("Instant", nullptr); });
        NS_TEST_ASSERT_MSG_EQ(ddnntest::Contains(instant,
                                                 "Syncer: Instant, but the job's workers run in "
                                                 "2 processes of a distributed run"),
                              true,
                              instant);
        const std::string adaptive
            = ddnntest::ErrorOf([] { Install("Network", CreateObject<SlackAdaptivePriority>()); });
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::Contains(adaptive, "BufferPriority: the job's workers run in 2 processes"),
            true,
            adaptive);
    }
};

/**
 * \ingroup ddnn-tests
 * SourcePorts FromFlow: every sink knows its flow by the source port (a wrong guess would
 * overfill another flow and stop the run), so the same flows on a single ToR (no ECMP: ports
 * move no packet elsewhere) complete at the same times as with the stack's ephemeral ports.
 */
class FlowPortsTestCase : public TestCase
{
  public:
    FlowPortsTestCase()
        : TestCase("flows known by their source port complete as with ephemeral ports")
    {
    }

  private:
    static std::vector<BackgroundTenant::Flow>
    Run(BackgroundTenant::SourcePorts ports)
    {
        TransportSettings().Apply(); // ddnn's TCP settings, before the sockets exist
        Ptr<SingleTorHelper> network = ddnntest::GigabitRack(4);
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetPatternAttribute(
            "CdfFile", StringValue(ddnntest::WriteTempFile("ports-cdf.csv", "0,0\n200000,1\n")));
        helper->SetPatternAttribute("FlowRate", DoubleValue(200));
        helper->SetAttribute("Stop", TimeValue(MilliSeconds(100)));
        Ptr<BackgroundTenant> tenant = helper->Install(network->GetServers());
        tenant->SetAttribute("SourcePorts", EnumValue(ports));
        Simulator::Run();
        std::vector<BackgroundTenant::Flow> flows = tenant->GetFlows();
        Simulator::Destroy();
        return flows;
    }

    void
    DoRun() override
    {
        const auto ephemeral = Run(BackgroundTenant::EPHEMERAL);
        const auto fromFlow = Run(BackgroundTenant::FROM_FLOW);
        NS_TEST_ASSERT_MSG_GT(ephemeral.size(), 50, "flows");
        NS_TEST_ASSERT_MSG_EQ(fromFlow.size(), ephemeral.size(), "the same flows");
        for (size_t i = 0; i < ephemeral.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(fromFlow[i].Completed(), true, "flow " << i);
            NS_TEST_ASSERT_MSG_EQ(fromFlow[i].end, ephemeral[i].end, "flow " << i << "'s end");
        }
    }
};

/**
 * \ingroup ddnn-tests
 * The states the processes exchange: a recorder built after a run and given the run's
 * recorder state summarizes the same training; the background tenant's state, given to a
 * tenant of the same flows, completes them at the same times; a meter's state merged into
 * itself doubles every byte; a state that does not fit is one line.
 */
class RankStateTestCase : public TestCase
{
  public:
    RankStateTestCase()
        : TestCase("recorder, tenant and meter states merge back into the same figures")
    {
    }

  private:
    void
    DoRun() override
    {
        TransportSettings().Apply(); // ddnn's TCP settings, before the sockets exist
        Ptr<SingleTorHelper> network = ddnntest::GigabitRack(4);
        Ptr<TrainingJob> job = ddnntest::InstallMegabyteJob(network, 5000, 0x10, 4);
        TrainingRecorder recorder(job);
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetPatternAttribute("FlowRate", DoubleValue(100));
        helper->SetAttribute("Stop", TimeValue(MilliSeconds(60)));
        Ptr<BackgroundTenant> tenant = helper->Install(network->GetServers());
        UtilizationMeter meter(network, MilliSeconds(5), Seconds(0), MilliSeconds(60));
        QueueMeter queues(network, Seconds(0), MilliSeconds(60));
        Simulator::Run();

        const DataRate rate("1Gbps");
        const TrainingSummary run = recorder.Summarize(rate, Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(run.iterationsCompleted, 4, "the run trained");
        TrainingRecorder merged(job); // no traces after the run: only what it is given
        merged.MergeRankState(recorder.GetRankState());
        const TrainingSummary again = merged.Summarize(rate, Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(again.iterationsCompleted, run.iterationsCompleted, "iterations");
        NS_TEST_ASSERT_MSG_EQ(again.iterationTimeMeanS, run.iterationTimeMeanS, "mean period");
        NS_TEST_ASSERT_MSG_EQ(
            again.bytesPerWorkerPerIteration, run.bytesPerWorkerPerIteration, "bytes per worker");
        NS_TEST_ASSERT_MSG_EQ(
            again.allreducesMeasured, 2 * run.allreducesMeasured, "its records join the job's own");

        std::vector<ddnn_flow> flows;
        for (const auto& f : tenant->GetFlows())
        {
            flows.push_back(ddnn_flow{
                f.id, f.src, f.dst, f.bytes, static_cast<uint64_t>(f.start.GetNanoSeconds())});
        }
        NS_TEST_ASSERT_MSG_GT(flows.size(), 10, "flows");
        Ptr<BackgroundTenant> copy = CreateObject<BackgroundTenant>();
        copy->Install(network, flows);
        copy->MergeRankState(tenant->GetRankState());
        for (size_t i = 0; i < flows.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(
                copy->GetFlows()[i].Completed(), tenant->GetFlows()[i].Completed(), "flow " << i);
            NS_TEST_ASSERT_MSG_EQ(copy->GetFlows()[i].end, tenant->GetFlows()[i].end, "its end");
        }
        const std::string twice
            = ddnntest::ErrorOf([&] { copy->MergeRankState(tenant->GetRankState()); });
        NS_TEST_ASSERT_MSG_EQ(ddnntest::Contains(twice, "a state of other flows"), true, twice);

        const double background = meter.GetUplinkUtilization(TenantKind::BACKGROUND);
        const double training = meter.GetUplinkUtilization(TenantKind::TRAINING);
        NS_TEST_ASSERT_MSG_GT(background, 0, "background measured");
        meter.MergeRankState(meter.GetRankState());
        NS_TEST_ASSERT_MSG_EQ_TOL(
            meter.GetUplinkUtilization(TenantKind::BACKGROUND), 2 * background, 1e-12, "doubled");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            meter.GetUplinkUtilization(TenantKind::TRAINING), 2 * training, 1e-12, "doubled");
        const uint64_t backlog = queues.GetMaxBacklogBytes(QueueMeter::SWITCHES, 1);
        queues.MergeRankState(queues.GetRankState());
        NS_TEST_ASSERT_MSG_EQ(queues.GetMaxBacklogBytes(QueueMeter::SWITCHES, 1),
                              backlog,
                              "the largest backlog of both");
        const std::string bands = ddnntest::ErrorOf([&] { queues.MergeRankState("7 1\n"); });
        NS_TEST_ASSERT_MSG_EQ(ddnntest::Contains(bands, "a state of other bands"), true, bands);
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * What a distributed run needs of the module, in one process.
 */
class DistributedTestSuite : public TestSuite
{
  public:
    DistributedTestSuite()
        : TestSuite("ddnn-distributed", Type::SYSTEM)
    {
        AddTestCase(new PartitionTestCase);
        AddTestCase(new SpreadJobTestCase);
        AddTestCase(new FlowPortsTestCase);
        AddTestCase(new RankStateTestCase);
    }
};

static DistributedTestSuite g_distributedTestSuite; //!< registers the suite
