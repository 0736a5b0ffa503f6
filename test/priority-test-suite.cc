/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tenant priorities and the queue discs that act on them: PfifoFast at the switch, four bands
 * (prio4), per-buffer priority, priority names to ToS, and on a topology of the user's own
 * (a dumbbell built with ns-3's helpers) the check that the egress queue discs on the
 * tenants' paths can act on them (ns-3's default FqCoDel, a FIFO) and the one-call install of
 * PfifoFast that makes them work.
 */
#include "../model/ddnn-ring.h"
#include "../model/ns3-compat.h"
#include "ddnn-test-util.h"

#include "ns3/applications-module.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/internet-module.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <sstream>

using namespace ns3;
using namespace ns3::ddnntest;

/**
 * \ingroup ddnn-tests
 * Two servers send into a third at line rate: PfifoFast at the switch keeps
 * the band-0 flow at its rate while the band-2 flow yields, and the reverse
 * when the bands swap.
 */
class SwitchPriorityTestCase : public TestCase
{
  public:
    SwitchPriorityTestCase()
        : TestCase("PfifoFast at the switch: band 0 keeps its rate, band 2 yields")
    {
    }

  private:
    /** What the two sinks hold when the measurement starts (a function: ns-3.35 takes no lambdas).
     */
    static void
    RecordStart(std::vector<Ptr<PacketSink>>* sinks, uint64_t* start0, uint64_t* start1)
    {
        *start0 = (*sinks)[0]->GetTotalRx();
        *start1 = (*sinks)[1]->GetTotalRx();
    }

    /** Bytes received from servers 0 and 1 in 20 ms, with the given ToS values. */
    static std::pair<uint64_t, uint64_t>
    Run(uint8_t tos0, uint8_t tos1)
    {
        Ptr<SingleTorHelper> network = TunedSingleTor(3);
        std::vector<Ptr<PacketSink>> sinks;
        for (uint32_t s = 0; s < 2; ++s)
        {
            uint16_t port = 7000 + s;
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            sinks.push_back(DynamicCast<PacketSink>(sink.Install(network->GetServer(2)).Get(0)));
            BulkSendHelper bulk = compat::TcpBulkSendWithTos(
                InetSocketAddress(network->GetServerAddress(2), port), s == 0 ? tos0 : tos1);
            bulk.SetAttribute("SendSize", UintegerValue(65536));
            bulk.Install(network->GetServer(s));
        }
        // Measure from 5 ms on, once both senders are past slow start.
        uint64_t start0 = 0;
        uint64_t start1 = 0;
        Simulator::Schedule(MilliSeconds(5), &RecordStart, &sinks, &start0, &start1);
        Simulator::Stop(MilliSeconds(25));
        Simulator::Run();
        std::pair<uint64_t, uint64_t> received{sinks[0]->GetTotalRx() - start0,
                                               sinks[1]->GetTotalRx() - start1};
        Simulator::Destroy();
        return received;
    }

    void
    DoRun() override
    {
        // 20 ms at 10 Gbit/s of goodput is about 24 MB
        const double lineBytes = 10e9 * 0.020 / 8 * 1448.0 / 1502.0;
        auto [high, low] = Run(0x10, 0x08);
        NS_TEST_ASSERT_MSG_GT(high, 0.9 * lineBytes, "band 0 keeps its rate: " << high);
        NS_TEST_ASSERT_MSG_LT(low, 0.1 * lineBytes, "band 2 yields: " << low);
        auto [low2, high2] = Run(0x08, 0x10);
        NS_TEST_ASSERT_MSG_GT(high2, 0.9 * lineBytes, "swapped: band 0 keeps its rate");
        NS_TEST_ASSERT_MSG_LT(low2, 0.1 * lineBytes, "swapped: band 2 yields");
        auto [same0, same1] = Run(0x10, 0x10);
        NS_TEST_ASSERT_MSG_GT(same0, 0.25 * lineBytes, "same band: both progress");
        NS_TEST_ASSERT_MSG_GT(same1, 0.25 * lineBytes, "same band: both progress");
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
        Ptr<SingleTorHelper> network = TunedSingleTor(4, [](Ptr<SingleTorHelper> net) {
            net->SetAttribute("QueueDisc", EnumValue(EgressQueue::PRIO4));
        });
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
        Job t(4, SmallThesisProfile(), 533333, MilliSeconds(1));
        t.helper.SetAttribute("Tos", UintegerValue(0x08));
        Ptr<FirstBuffersPriority> first = CreateObject<FirstBuffersPriority>();
        first->SetAttribute("Count", UintegerValue(1));
        first->SetAttribute("Tos", UintegerValue(0x10));
        t.helper.SetAttribute("BufferPriority", PointerValue(first));
        t.Install();
        Ptr<SingleTorHelper> network = t.network;
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
 * Slack-adaptive priority over TCP on one rack, no other traffic, with the barrier: the
 * compute-bound iteration (100 ms) dwarfs each buffer's ring (under 1 ms), so buffer 0, ready
 * first in the backward pass, has tens of ms of slack and stays low (ToS 0x08, band 2) for its
 * whole collective, while the buffer holding layer 0, ready when the backward pass ends, is
 * due at once and is raised (0x10, band 0) from its first step. At worker 0's egress, band 0
 * carries the ring bytes of the collectives the job recorded wholly at 0x10 (plus headers),
 * and no more than those of the collectives that spent any time there and the ACKs of what
 * worker 0 receives (the policy's AckTos).
 */
class SlackAdaptivePriorityTestCase : public TestCase
{
  public:
    SlackAdaptivePriorityTestCase()
        : TestCase("slack-adaptive: a buffer with slack stays low, one without is raised")
    {
    }

  private:
    static void
    CountChange(uint32_t* changes, uint32_t, uint32_t, uint32_t, int, int)
    {
        ++*changes;
    }

    void
    DoRun() override
    {
        Job t(4, SmallThesisProfile(), 533333, MilliSeconds(100));
        t.helper.SetAttribute("Iterations", UintegerValue(2));
        t.helper.SetAttribute("Tos", UintegerValue(0x08));
        Ptr<SlackAdaptivePriority> policy = CreateObject<SlackAdaptivePriority>();
        policy->SetAttribute("NominalRate", DataRateValue(t.idealRate));
        t.helper.SetAttribute("BufferPriority", PointerValue(policy));
        t.Install();
        uint32_t changes = 0;
        t.job->TraceConnectWithoutContext("PriorityChange",
                                          MakeBoundCallback(&CountChange, &changes));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "job finished");
        Ptr<DnnModel> model = t.job->GetModel();
        const uint32_t last = model->GetBufferCount() - 1; // holds layer 0
        double allHigh = 0; // worker 0's ring bytes in collectives wholly at 0x10
        double anyHigh = 0; // ... in collectives with any time at 0x10
        double all = 0;     // ... in every collective (and as many received)
        uint32_t raised = 0;
        uint32_t low = 0;
        for (const TrainingJob::Record& r : t.job->GetRecords())
        {
            const uint64_t atHigh = r.nsAtTos.count(0x10) ? r.nsAtTos.at(0x10) : 0;
            const uint64_t atLow = r.nsAtTos.count(0x08) ? r.nsAtTos.at(0x08) : 0;
            NS_TEST_ASSERT_MSG_EQ(atHigh + atLow, r.end_ns - r.start_ns, "times at ToS add up");
            const double bytes = ddnn_ring_bytes_sent_by(model->GetBuffer(r.buffer).bytes, 4, 0);
            allHigh += atLow == 0 ? bytes : 0;
            anyHigh += atHigh > 0 ? bytes : 0;
            all += bytes;
            raised += atHigh > 0 ? 1 : 0;
            low += atHigh == 0 ? 1 : 0;
            if (r.buffer == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(atHigh, 0, "buffer 0 has slack: low all along");
            }
            if (r.buffer == last)
            {
                NS_TEST_ASSERT_MSG_EQ(atLow, 0, "the layer-0 buffer is due at once: raised");
            }
        }
        NS_TEST_ASSERT_MSG_GT(low, 2, "buffers with slack stay low");
        NS_TEST_ASSERT_MSG_GT(allHigh, 0, "buffers without are raised");
        Ptr<QueueDisc> egress = t.network->GetServerQueueDisc(0);
        const double band0 = egress->GetInternalQueue(0)->GetTotalReceivedBytes();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(band0, allHigh, "band 0 holds the raised collectives' bytes");
        // Headers: 52 bytes per 1448-byte segment, one partial segment more per step (2(N-1)
        // steps of a 4-worker ring), and a handshake and closing; and the ACKs of all it
        // receives (the policy raises them: at most one 52-byte ACK per segment).
        NS_TEST_ASSERT_MSG_LT_OR_EQ(band0,
                                    anyHigh * 1500 / 1448 + raised * 6 * 52 + 1000
                                        + all / 1448 * 52,
                                    "and nothing of the collectives never raised");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(changes, 2 * t.job->GetRecords().size(), "changes traced");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * slack-adaptive raises a step in flight: with a NominalRate far above what the links give,
 * every step starts low on the policy's optimistic forecast; once bytes arrive the achieved
 * rate shows the slack running out, and the step already being sent is raised (a change
 * traced at step 0, which no step boundary can make). The bytes the senders still held leave
 * in band 0: at worker 0's egress band 0 carries more than the collectives that were wholly
 * high, and the times at each ToS still add up.
 */
class SlackRaisedInFlightTestCase : public TestCase
{
  public:
    SlackRaisedInFlightTestCase()
        : TestCase("slack-adaptive: a step whose slack runs out is raised while in flight")
    {
    }

  private:
    static void
    CountInFlight(uint32_t* inFlight, uint32_t, uint32_t, uint32_t step, int, int to)
    {
        // Step 0's ToS is decided when the collective starts: a change at step 0 is in flight.
        *inFlight += step == 0 && to == 0x10 ? 1 : 0;
    }

    static void
    CountData(uint64_t* bytes, Ptr<const QueueDiscItem> item)
    {
        *bytes += item->GetSize() > 100 ? item->GetSize() : 0; // segments, not ACKs
    }

    /** PfifoFast makes its bands when its node starts: connect once it has. */
    static void
    CountBand0(Ptr<SingleTorHelper> network, uint64_t* bytes)
    {
        network->GetServerQueueDisc(0)->GetInternalQueue(0)->TraceConnectWithoutContext(
            "Enqueue", MakeBoundCallback(&CountData, bytes));
    }

    void
    DoRun() override
    {
        // With the barrier every buffer is due when the backward pass ends (20 ms); a
        // collective takes about 0.49 ms, and the one starting 1.6 ms before the deadline
        // looks as if it had that slack until its first bytes arrive: then 1.1 ms, below
        // the 1.5 ms margin.
        Job t(2, SmallThesisProfile(), 533333, MilliSeconds(20));
        // A 64 kB send buffer keeps most of a step's chunk with the sender, not in the
        // server's queue disc, where a raise could not reach it.
        TypeId::AttributeInformation sndBuf;
        TypeId::LookupByName("ns3::TcpSocket").LookupAttributeByName("SndBufSize", &sndBuf);
        const Ptr<const AttributeValue> tunedSndBuf = sndBuf.initialValue;
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(65536));
        t.helper.SetAttribute("Iterations", UintegerValue(2));
        t.helper.SetAttribute("Tos", UintegerValue(0x08));
        Ptr<SlackAdaptivePriority> policy = CreateObject<SlackAdaptivePriority>();
        policy->SetAttribute("NominalRate",
                             DataRateValue(DataRate(t.idealRate.GetBitRate() * 1000)));
        policy->SetAttribute("MarginFraction", DoubleValue(0));
        policy->SetAttribute("Margin", TimeValue(MicroSeconds(1500)));
        t.helper.SetAttribute("BufferPriority", PointerValue(policy));
        t.Install();
        uint32_t inFlight = 0;
        t.job->TraceConnectWithoutContext("PriorityChange",
                                          MakeBoundCallback(&CountInFlight, &inFlight));
        uint64_t band0Data = 0;
        Simulator::Schedule(NanoSeconds(1), &CountBand0, t.network, &band0Data);
        Simulator::Run();
        Config::SetDefault("ns3::TcpSocket::SndBufSize", *tunedSndBuf);
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_GT(inFlight, 0, "a step was raised in flight");
        Ptr<DnnModel> model = t.job->GetModel();
        double wholly = 0; // worker 0's ring bytes in collectives wholly at 0x10
        double partly = 0; // ... in collectives with time at both
        for (const TrainingJob::Record& r : t.job->GetRecords())
        {
            const uint64_t atHigh = r.nsAtTos.count(0x10) ? r.nsAtTos.at(0x10) : 0;
            const uint64_t atLow = r.nsAtTos.count(0x08) ? r.nsAtTos.at(0x08) : 0;
            NS_TEST_ASSERT_MSG_EQ(atHigh + atLow, r.end_ns - r.start_ns, "times at ToS add up");
            const double bytes = ddnn_ring_bytes_sent_by(model->GetBuffer(r.buffer).bytes, 2, 0);
            wholly += atLow == 0 ? bytes : 0;
            partly += atLow > 0 && atHigh > 0 ? bytes : 0;
        }
        NS_TEST_ASSERT_MSG_GT(partly, 0, "collectives raised part way");
        // Step 1 (half of a two-worker ring's bytes) is decided high at its boundary; beyond
        // it, at least a tenth of each partly raised collective is what the senders still
        // held of step 0 when it was raised (full segments: 1500 bytes per 1448).
        NS_TEST_ASSERT_MSG_GT(band0Data,
                              (wholly + 0.6 * partly) * 1500 / 1448,
                              "the bytes held when the step was raised went in band 0");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(band0Data,
                                    (wholly + partly) * 1500 / 1448 + 1500 * 8,
                                    "and nothing of the collectives never raised");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * slack-adaptive's LearnRate, without a simulation: a collective wholly at HighTos that moved
 * its busiest rank's 1 MB in 2 ms teaches 500 MB/s, so 1 MB of buffers still to come costs
 * 2 ms of slack instead of 0.8 ms at the 10 Gbit/s NominalRate; the next one (1 MB in 4 ms)
 * moves the running mean a quarter of the way (437.5 MB/s); a collective that spent time at
 * LowTos teaches nothing, and a learned rate above NominalRate is not used. Off, nothing is
 * learned.
 */
class SlackLearnRateTestCase : public TestCase
{
  public:
    SlackLearnRateTestCase()
        : TestCase("slack-adaptive LearnRate: the backlog at the raised collectives' rate")
    {
    }

  private:
    static BufferPriorityPolicy::Progress
    Ended(uint64_t ns)
    {
        BufferPriorityPolicy::Progress p{};
        p.startedNs = 1000000;
        p.nowNs = p.startedNs + ns;
        p.busiestBytes = 1000000;
        p.bytesTotal = 4000000;
        return p;
    }

    /** The slack of a collective about to start, due in 10 ms, with 1 MB still to come. */
    static int64_t
    Slack(Ptr<SlackAdaptivePriority> policy)
    {
        BufferPriorityPolicy::Progress p{};
        p.startedNs = 0;
        p.nowNs = 0;
        p.deadlineNs = 10000000;
        p.busiestBytes = 1;
        p.bytesTotal = 1; // about nothing to send itself
        p.backlogBusiestBytes = 1000000;
        return policy->GetSlackNs(p);
    }

    void
    DoRun() override
    {
        const std::map<uint8_t, uint64_t> high{{0x10, 2000000}};
        Ptr<SlackAdaptivePriority> off = CreateObject<SlackAdaptivePriority>();
        off->CollectiveEnded(Ended(2000000), high);
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(off), 10e6 - 0.8e6, 10, "off: NominalRate's 0.8 ms");
        Ptr<SlackAdaptivePriority> on = CreateObject<SlackAdaptivePriority>();
        on->SetAttribute("LearnRate", BooleanValue(true));
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(on), 10e6 - 0.8e6, 10, "nothing learnt yet");
        on->CollectiveEnded(Ended(2000000), {{0x08, 1000000}, {0x10, 1000000}});
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(on), 10e6 - 0.8e6, 10, "a yielding collective: no");
        on->CollectiveEnded(Ended(2000000), high);
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(on), 10e6 - 2e6, 10, "500 MB/s: 2 ms");
        on->CollectiveEnded(Ended(4000000), high);
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(on), 10e6 - 1e15 / 437.5e6, 10, "437.5 MB/s");
        Ptr<SlackAdaptivePriority> fast = CreateObject<SlackAdaptivePriority>();
        fast->SetAttribute("LearnRate", BooleanValue(true));
        fast->CollectiveEnded(Ended(100000), high); // 10 GB/s, above the links
        NS_TEST_ASSERT_MSG_EQ_TOL(Slack(fast), 10e6 - 0.8e6, 10, "never above NominalRate");
    }
};

/**
 * \ingroup ddnn-tests
 * Priority names and their ToS; a wrong name stops with one line naming the attribute.
 */
class PriorityNamesTestCase : public TestCase
{
  public:
    PriorityNamesTestCase()
        : TestCase("priority names: same, low, high and bands to ToS; a wrong one is refused")
    {
    }

  private:
    void
    DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(+TenantPriority::Tos("a", "same"), 0x10, "every tenant's default");
        NS_TEST_ASSERT_MSG_EQ(+TenantPriority::Tos("a", "low"), 0x08, "PfifoFast band 2");
        NS_TEST_ASSERT_MSG_EQ(+TenantPriority::Tos("a", "high"), 0x10, "PfifoFast band 0");
        NS_TEST_ASSERT_MSG_EQ(+TenantPriority::Tos("a", "band1"), 0x00, "PfifoFast band 1");
        Ptr<BackgroundTenant> tenant = CreateObject<BackgroundTenant>();
        NS_TEST_ASSERT_MSG_EQ(+tenant->GetTos(), 0x10, "no Priority: Tos");
        tenant->SetAttribute("Priority", StringValue("low"));
        NS_TEST_ASSERT_MSG_EQ(+tenant->GetTos(), 0x08, "Priority low");
        NS_TEST_ASSERT_MSG_EQ(+tenant->GetAckTos(), 0x08, "ACKs in the data band");
        const std::string wrong
            = ErrorOf([&] { tenant->SetAttribute("Priority", StringValue("lowest")); });
        NS_TEST_ASSERT_MSG_EQ(wrong,
                              "ns3::BackgroundTenant::Priority: expected same, low, high, band0, "
                              "band1 or band2, got 'lowest'",
                              "one line naming the attribute");
    }
};

/**
 * \ingroup ddnn-tests
 * With ns-3's own queue discs (Ipv4AddressHelper gives every device FqCoDel), a low-priority
 * job warns once, at the start, naming a node and device; with PriorityCheck Error the run
 * ends with that line as a DdnnError; tenants at the same priority say nothing.
 */
class DefaultQueueDiscsTestCase : public TestCase
{
  public:
    DefaultQueueDiscsTestCase()
        : TestCase("ns-3's default FqCoDel: a low-priority job warns once; Error stops the run")
    {
    }

  private:
    void
    DoRun() override
    {
        {
            Dumbbell net;
            net.InstallTenants("low");
            const std::string err = RunCapturingStderr(MicroSeconds(1));
            NS_TEST_ASSERT_MSG_EQ(Count(err, "ddnn: warning:"), 1, err);
            NS_TEST_ASSERT_MSG_EQ(
                Contains(err, "ddnn: warning: the training job (ToS 0x08)"), true, err);
            NS_TEST_ASSERT_MSG_EQ(Contains(err,
                                           "device 1 (ns3::PointToPointNetDevice): "
                                           "ns3::FqCoDelQueueDisc (ToS 0x08 and 0x10 share "
                                           "its one queue)"),
                                  true,
                                  err);
            NS_TEST_ASSERT_MSG_EQ(Count(err, "\n"), 1, "one line: " << err);
            Simulator::Destroy();
        }
        {
            Dumbbell net;
            net.InstallTenants("low", "Error");
            const std::string error = ErrorOf([] { RunCapturingStderr(MicroSeconds(1)); });
            NS_TEST_ASSERT_MSG_EQ(Contains(error,
                                           "the training job (ToS 0x08) cannot be kept "
                                           "apart from the other traffic at node "),
                                  true,
                                  error);
            NS_TEST_ASSERT_MSG_EQ(Contains(error, "\n"), false, "one line: " << error);
        }
        {
            Dumbbell net;
            net.InstallTenants("same");
            const std::string err = RunCapturingStderr(MicroSeconds(1));
            NS_TEST_ASSERT_MSG_EQ(err, "", "equal priorities need no bands");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ddnn-tests
 * Every registered egress queue disc keeps a low-priority job apart from the background: the
 * priority check reports nothing, even under Error (weighted bands included). A Priomap that
 * sends a priority to a band the disc lacks is refused when the discs go on.
 */
class EveryEgressQueueTestCase : public TestCase
{
  public:
    EveryEgressQueueTestCase()
        : TestCase("every egress queue disc: a valid configuration passes PriorityCheck=Error; "
                   "a Priomap naming a missing band is refused")
    {
    }

  private:
    void
    DoRun() override
    {
        for (const std::string& name : EgressQueue::Names())
        {
            EgressQueue egress;
            egress.kind = EgressQueue::FromScenario(name);
            if (EgressQueue::Bands(egress.kind) < 3)
            {
                continue; // a disc registered by another test, one band for every ToS
            }
            Dumbbell net;
            egress.Install(NodeContainer::GetGlobal());
            net.InstallTenants("low", "Error");
            std::string err;
            const std::string error = ErrorOf([&] { err = RunCapturingStderr(MicroSeconds(1)); });
            NS_TEST_ASSERT_MSG_EQ(error + err, "", name << ": reported or refused");
            Simulator::Destroy();
        }
        const std::string priomap = "ns3::WeightedBandQueueDisc::Priomap";
        Config::SetDefault(priomap, StringValue("1 2 2 2 1 2 0 7 1 1 1 1 1 1 1 1"));
        {
            Dumbbell net;
            EgressQueue egress;
            egress.kind = EgressQueue::FromScenario("weighted-bands");
            const std::string error = ErrorOf([&] { egress.Install(NodeContainer::GetGlobal()); });
            NS_TEST_ASSERT_MSG_EQ(Contains(error,
                                           priomap
                                               + ": priority 7 goes to band 7, which the "
                                                 "queue disc lacks (bands 0 to 2)"),
                                  true,
                                  error);
            Simulator::Destroy();
        }
        Config::SetDefault(priomap, StringValue("1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1"));
    }
};

/**
 * \ingroup ddnn-tests
 * After EgressQueue().Install on every node, nothing is reported and PfifoFast's bands hold
 * the training job in band 2 and the background in band 0 (counted per tenant by TCP port
 * on every egress); one FIFO left on the routers' link is reported by its node and device.
 */
class OneCallInstallTestCase : public TestCase
{
  public:
    OneCallInstallTestCase()
        : TestCase("EgressQueue::Install: training and background in different bands")
    {
    }

  private:
    /** Packets enqueued per band, by tenant (TCP port 5000: training, 6000: background). */
    struct Counts
    {
        uint64_t training[3]{};
        uint64_t background[3]{};
    };

    static void
    Enqueued(Counts* counts, uint32_t band, Ptr<const QueueDiscItem> item)
    {
        TcpHeader tcp;
        item->GetPacket()->PeekHeader(tcp);
        const auto is = [&](uint16_t port) {
            return tcp.GetSourcePort() == port || tcp.GetDestinationPort() == port;
        };
        if (is(5000))
        {
            counts->training[band]++;
        }
        else if (is(6000))
        {
            counts->background[band]++;
        }
    }

    static void
    ConnectBands(QueueDiscContainer discs, Counts* counts)
    {
        for (uint32_t i = 0; i < discs.GetN(); ++i)
        {
            for (uint32_t band = 0; band < 3; ++band)
            {
                discs.Get(i)->GetInternalQueue(band)->TraceConnectWithoutContext(
                    "Enqueue", MakeBoundCallback(&Enqueued, counts, band));
            }
        }
    }

    void
    DoRun() override
    {
        {
            Dumbbell net;
            QueueDiscContainer discs = EgressQueue().Install(NodeContainer::GetGlobal());
            NS_TEST_ASSERT_MSG_EQ(discs.GetN(), 10, "both ends of the 5 links");
            Ptr<TrainingJob> job = net.InstallTenants("low");
            Counts counts;
            // The bands exist once the simulation has initialized the queue discs.
            Simulator::Schedule(Seconds(0), &ConnectBands, discs, &counts);
            const std::string err = RunCapturingStderr(MilliSeconds(40));
            NS_TEST_ASSERT_MSG_EQ(err, "", "PfifoFast keeps the ToS apart");
            NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "the job finished");
            NS_TEST_ASSERT_MSG_GT(counts.training[2], 100, "training in band 2");
            NS_TEST_ASSERT_MSG_EQ(counts.training[0] + counts.training[1], 0, "only band 2");
            NS_TEST_ASSERT_MSG_GT(counts.background[0], 100, "background in band 0");
            NS_TEST_ASSERT_MSG_EQ(counts.background[1] + counts.background[2], 0, "only 0");
            Simulator::Destroy();
        }
        {
            Dumbbell net;
            EgressQueue().Install(NodeContainer::GetGlobal());
            TrafficControlHelper fifo;
            fifo.SetRootQueueDisc("ns3::FifoQueueDisc");
            fifo.Uninstall(net.core.Get(0));
            fifo.Install(net.core.Get(0));
            net.InstallTenants("low");
            const std::string err = RunCapturingStderr(MicroSeconds(1));
            std::ostringstream where;
            where << "node " << net.routers.Get(0)->GetId() << " device "
                  << net.core.Get(0)->GetIfIndex()
                  << " (ns3::PointToPointNetDevice): ns3::FifoQueueDisc (ToS 0x08 and 0x10 "
                     "share its one queue): install";
            NS_TEST_ASSERT_MSG_EQ(Contains(err, where.str()), true, err);
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of tenant priorities and the queue discs that act on them.
 */
class PriorityTestSuite : public TestSuite
{
  public:
    PriorityTestSuite()
        : TestSuite("ddnn-priority", Type::SYSTEM)
    {
        AddTestCase(new SwitchPriorityTestCase);
        AddTestCase(new FourBandsTestCase);
        AddTestCase(new BufferPriorityTestCase);
        AddTestCase(new SlackAdaptivePriorityTestCase);
        AddTestCase(new SlackRaisedInFlightTestCase);
        AddTestCase(new SlackLearnRateTestCase);
        AddTestCase(new PriorityNamesTestCase);
        AddTestCase(new DefaultQueueDiscsTestCase);
        AddTestCase(new OneCallInstallTestCase);
        AddTestCase(new EveryEgressQueueTestCase);
    }
};

static PriorityTestSuite g_priorityTestSuite; //!< registers the suite
