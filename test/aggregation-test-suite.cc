/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * In-network aggregation over real ns-3 packets on a single ToR with no other traffic,
 * checked against first principles: each worker sends its buffer once and receives the sum
 * once (plus headers), the switch's sums are the contributions' sums, a network-bound buffer
 * takes S/rate rather than the ring's 2(N-1)/N x S/rate, lost packets are recovered and
 * counted, slot memory never exceeds the switch's budget, and a job the switch has no room
 * for falls back to the ring and says so. Designs the module does not support are one line.
 */
#include "ddnn-test-util.h"

#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

constexpr uint32_t kSlots = 16;       //!< a pool past a 1 Gbit/s round trip of the rack
constexpr uint32_t kSlotBytes = 1024; //!< the default
constexpr double kRate = 1e9;         //!< the rack's links
constexpr uint64_t kBuffer = 1000000; //!< one buffer, one iteration

/** One iteration of one buffer of kBuffer on servers first..first+n-1, aggregating in the
 * network (Join not yet called), at ToS 0x08 (PfifoFast's band 2). */
Ptr<TrainingJob>
InstallJob(Ptr<ServerTopology> network, uint32_t first, uint32_t n, const std::string& name)
{
    NodeContainer workers;
    for (uint32_t i = first; i < first + n; ++i)
    {
        workers.Add(network->GetServer(i));
    }
    TrainingHelper helper;
    helper.SetAttribute("ProfileFile", StringValue(ddnntest::WriteProfile(name, {kBuffer})));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(kBuffer));
    helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
    helper.SetAttribute("Iterations", UintegerValue(1));
    helper.SetAttribute("Collective", StringValue("in-network-aggregation"));
    helper.SetAttribute("AggregationSlots", UintegerValue(kSlots));
    helper.SetAttribute("Port", UintegerValue(5000 + first));
    helper.SetAttribute("Tos", UintegerValue(0x08));
    helper.Install(workers);
    return helper.GetJob();
}

/** Worker `w`'s aggregation client (its transport's). */
Ptr<AggregationClient>
ClientOf(Ptr<TrainingJob> job, uint32_t w)
{
    return DynamicCast<TcpPartitionTransport>(job->GetWorker(w)->GetTransport())
        ->GetAggregationClient();
}

/** The AggregatingSwitch installed on `node`. */
Ptr<AggregatingSwitch>
SwitchOn(Ptr<Node> node)
{
    return AggregationHelper().Install(node);
}

} // namespace

/**
 * \ingroup ddnn-tests
 * No loss, N in {2, 4, 8}: every worker hands its 1 MB buffer to the switch once and gets the
 * whole sum back once, in the job's band both ways; the switch sums each chunk from all N (every
 * result carries the sum of the values the workers put in, N(N+1)/2), sends nothing again, and
 * lends exactly the job's slots; each worker's link carries the buffer once plus headers; the
 * collective takes S/rate (within 15 %), where the ring would take 2(N-1)/N of that.
 */
class AggregationLosslessTestCase : public TestCase
{
  public:
    explicit AggregationLosslessTestCase(uint32_t workers)
        : TestCase("in-network aggregation, N=" + std::to_string(workers)
                   + ": each worker sends and receives its buffer once, at the line rate")
        , m_workers(workers)
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        const uint32_t n = m_workers;
        Ptr<SingleTorHelper> tor = ddnntest::GigabitRack(n);
        Ptr<TrainingJob> job = InstallJob(tor, 0, n, "ina.csv");
        NS_TEST_ASSERT_MSG_EQ(AggregationHelper().Join(job), true, "the switch has room");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_EQ(job->GetFallback(), "", "no fallback");
        const uint64_t chunks = (kBuffer + kSlotBytes - 1) / kSlotBytes;
        const int64_t sum = static_cast<int64_t>(n) * (n + 1) / 2;
        for (uint32_t w = 0; w < n; ++w)
        {
            const AggregationClient::Stats s = ClientOf(job, w)->GetStats();
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(w)->GetBytesSent(0), kBuffer, "worker " << w);
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(w)->GetBytesReceived(), kBuffer, "worker " << w);
            NS_TEST_ASSERT_MSG_EQ(s.bytesSent, kBuffer, "worker " << w << ": each chunk once");
            NS_TEST_ASSERT_MSG_EQ(s.bytesReceived, kBuffer, "worker " << w << ": the sum once");
            NS_TEST_ASSERT_MSG_EQ(s.retransmissions, 0, "worker " << w << ": nothing lost");
            NS_TEST_ASSERT_MSG_EQ(s.results, chunks, "worker " << w);
            NS_TEST_ASSERT_MSG_EQ(s.wrongSums, 0, "worker " << w << ": every sum right");
            NS_TEST_ASSERT_MSG_EQ(s.valueSum, sum * static_cast<int64_t>(chunks), "worker " << w);
            NS_TEST_ASSERT_MSG_GT(s.maxSlotsInUse, 1, "worker " << w << ": a pool in use");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(s.maxSlotsInUse, kSlots, "worker " << w);
            // Its link: the buffer once, each chunk with its aggregation, UDP, IPv4 headers.
            const double up = tor->GetServerQueueDisc(w)->GetStats().nTotalSentBytes;
            NS_TEST_ASSERT_MSG_EQ_TOL(up,
                                      kBuffer + chunks * (AggregationHeader::SIZE + 8 + 20),
                                      1.0,
                                      "worker " << w << "'s link carries the buffer once");
            // Chunks and results keep the job's band, at the worker and at the switch.
            const std::vector<Ptr<Object>> bands
                = EgressQueue::BandQueues(tor->GetSwitchQueueDisc(w));
            for (uint32_t b = 0; b < bands.size(); ++b)
            {
                const double in = DynamicCast<QueueBase>(bands[b])->GetTotalReceivedBytes();
                const double expected = b == 2 ? up : 0;
                NS_TEST_ASSERT_MSG_EQ_TOL(
                    in, expected, 1.0, "the switch's band " << b << " towards worker " << w);
            }
        }
        Ptr<AggregatingSwitch> sw = SwitchOn(tor->GetSwitch());
        const AggregatingSwitch::Stats st = sw->GetStats();
        NS_TEST_ASSERT_MSG_EQ(st.results, chunks, "the switch summed each chunk once");
        NS_TEST_ASSERT_MSG_EQ(st.contributions, n * chunks, "from every worker");
        NS_TEST_ASSERT_MSG_EQ(st.repeats + st.stale + st.resent, 0, "nothing sent twice");
        NS_TEST_ASSERT_MSG_EQ(sw->GetMaxMemoryInUse(), kSlots * kSlotBytes, "the job's slots");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sw->GetMaxMemoryInUse(), sw->GetMemoryBytes(), "budget");
        const TrainingJob::Record record = job->GetRecords().at(0);
        const double t = (record.end_ns - record.start_ns) * 1e-9;
        const double ideal = kBuffer * 8 / kRate;
        NS_TEST_ASSERT_MSG_EQ_TOL(t, ideal, 0.15 * ideal, "S/rate: " << t * 1e3 << " ms");
        if (n > 2)
        {
            const double ring = 2.0 * (n - 1) / n * ideal;
            NS_TEST_ASSERT_MSG_LT(t, ring, "faster than the ring's " << ring * 1e3 << " ms");
        }
        Simulator::Destroy();
    }

    uint32_t m_workers;
};

/**
 * \ingroup ddnn-tests
 * Workers 1 and 2 lose 2 % of their packets both ways: every worker still gets the whole sum,
 * every sum right; the lost chunks and results are sent again, and the switch answers a
 * repeated chunk whose result is gone with the result again.
 */
class AggregationLossTestCase : public TestCase
{
  public:
    AggregationLossTestCase()
        : TestCase("in-network aggregation over lossy links: every sum arrives, retransmissions "
                   "counted")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        Ptr<SingleTorHelper> tor = ddnntest::GigabitRack(n, 0.02);
        Ptr<TrainingJob> job = InstallJob(tor, 0, n, "ina-loss.csv");
        AggregationHelper().Join(job);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        uint64_t retransmissions = 0;
        for (uint32_t w = 0; w < n; ++w)
        {
            const AggregationClient::Stats s = ClientOf(job, w)->GetStats();
            NS_TEST_ASSERT_MSG_EQ(s.bytesReceived, kBuffer, "worker " << w << ": the whole sum");
            NS_TEST_ASSERT_MSG_EQ(s.wrongSums, 0, "worker " << w);
            retransmissions += s.retransmissions;
        }
        NS_TEST_ASSERT_MSG_GT(retransmissions, 0, "lost packets were sent again");
        const AggregatingSwitch::Stats st = SwitchOn(tor->GetSwitch())->GetStats();
        NS_TEST_ASSERT_MSG_GT(st.repeats + st.resent, 0, "the switch saw chunks again");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Two jobs of 4 workers on one rack whose switch holds one job's slots: the first aggregates
 * there, the second falls back to ring-allreduce and says so; both finish, and the slot
 * memory lent never exceeds the budget.
 */
class AggregationSharedMemoryTestCase : public TestCase
{
  public:
    AggregationSharedMemoryTestCase()
        : TestCase("two jobs, one switch's memory: the second falls back to the ring")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> tor = ddnntest::GigabitRack(8);
        Ptr<TrainingJob> first = InstallJob(tor, 0, 4, "ina-first.csv");
        Ptr<TrainingJob> second = InstallJob(tor, 4, 4, "ina-second.csv");
        AggregationHelper aggregation;
        aggregation.SetSwitchAttribute("MemoryBytes", UintegerValue(kSlots * kSlotBytes + 1000));
        NS_TEST_ASSERT_MSG_EQ(aggregation.Join(first), true, "the first job gets its slots");
        NS_TEST_ASSERT_MSG_EQ(aggregation.Join(second), false, "no room for the second");
        NS_TEST_ASSERT_MSG_EQ(second->GetCollectiveName(), "ring-allreduce", "its fallback");
        NS_TEST_ASSERT_MSG_EQ(ddnntest::Contains(second->GetFallback(),
                                                 "in-network-aggregation fell back to "
                                                 "ring-allreduce: the switch"),
                              true,
                              second->GetFallback());
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(first->IsFinished(), true, "the aggregating job finished");
        NS_TEST_ASSERT_MSG_EQ(second->IsFinished(), true, "the ring job finished");
        NS_TEST_ASSERT_MSG_EQ(second->GetWorker(0)->GetBytesSent(0),
                              2 * 3 * kBuffer / 4,
                              "the second job ran the ring");
        Ptr<AggregatingSwitch> sw = aggregation.Install(tor->GetSwitch());
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sw->GetMaxMemoryInUse(), sw->GetMemoryBytes(), "budget");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * What the design does not support is one line each: a job spread over two racks, a slot
 * that does not fit the MTU, a switch memory below one slot, the ideal transport, and
 * joining a job that does not aggregate in the network.
 */
class AggregationErrorsTestCase : public TestCase
{
  public:
    AggregationErrorsTestCase()
        : TestCase("in-network aggregation: unsupported layouts and sizes are one line")
    {
    }

  private:
    void
    DoRun() override
    {
        const std::string spread = ddnntest::ErrorOf([] {
            Ptr<LeafSpineHelper> fabric = CreateObject<LeafSpineHelper>();
            fabric->SetAttribute("Leaves", UintegerValue(2));
            fabric->SetAttribute("ServersPerLeaf", UintegerValue(2));
            fabric->Create();
            Ptr<TrainingJob> job = InstallJob(fabric, 0, 4, "spread.csv");
            AggregationHelper().Join(job);
        });
        NS_TEST_ASSERT_MSG_EQ(
            ddnntest::Contains(spread, "expected every worker under one switch"), true, spread);
        const std::string mtu = ddnntest::ErrorOf([] {
            Ptr<TrainingJob> job = InstallJob(ddnntest::GigabitRack(2), 0, 2, "mtu.csv");
            job->SetAttribute("AggregationSlotBytes", UintegerValue(1448));
            AggregationHelper().Join(job);
        });
        NS_TEST_ASSERT_MSG_EQ(mtu,
                              "ns3::TrainingJob::AggregationSlotBytes: 1448, expected at most "
                              "1447 (the links' MTU 1500 less the aggregation, UDP and IPv4 "
                              "headers)",
                              "a slot above the MTU");
        const std::string memory = ddnntest::ErrorOf([] {
            Ptr<TrainingJob> job = InstallJob(ddnntest::GigabitRack(2), 0, 2, "memory.csv");
            AggregationHelper aggregation;
            aggregation.SetSwitchAttribute("MemoryBytes", UintegerValue(100));
            aggregation.Join(job);
        });
        NS_TEST_ASSERT_MSG_EQ(memory,
                              "ns3::AggregatingSwitch::MemoryBytes: 100, expected at least one "
                              "slot of 1024 bytes (ns3::TrainingJob::AggregationSlotBytes)",
                              "a memory below one slot");
        const std::string ring = ddnntest::ErrorOf([] {
            ddnntest::Job j(2, ddnntest::WriteProfile("ring.csv", {1000}), 1000, MilliSeconds(1));
            j.Install();
            AggregationHelper().Join(j.job);
        });
        NS_TEST_ASSERT_MSG_EQ(ring,
                              "ns3::AggregationHelper: the job's collective ring-allreduce does "
                              "not aggregate in the network, expected in-network-aggregation",
                              "joining a ring");
        {
            ddnntest::Job j(2, ddnntest::WriteProfile("ideal.csv", {1000}), 1000, MilliSeconds(1));
            j.UseIdealTransport();
            j.helper.SetAttribute("Collective", StringValue("in-network-aggregation"));
            j.Install();
            AggregationHelper().Join(j.job);
            Simulator::Run();
            const std::string ideal = ddnntest::ErrorOf([&j] { j.job->ThrowIfFailed(); });
            NS_TEST_ASSERT_MSG_EQ(
                ddnntest::Contains(ideal, "needs a packet transport"), true, ideal);
        }
    }
};

/**
 * \ingroup ddnn-tests
 * In-network aggregation end to end.
 */
class AggregationTestSuite : public TestSuite
{
  public:
    AggregationTestSuite()
        : TestSuite("ddnn-aggregation", Type::SYSTEM)
    {
        for (uint32_t n : {2u, 4u, 8u})
        {
            AddTestCase(new AggregationLosslessTestCase(n));
        }
        AddTestCase(new AggregationLossTestCase);
        AddTestCase(new AggregationSharedMemoryTestCase);
        AddTestCase(new AggregationErrorsTestCase);
    }
};

static AggregationTestSuite g_aggregationTestSuite; //!< registers the suite
