/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP with ECN-marking queue discs (PrioRed): marks instead of drops, queues held near the
 * marking threshold, small flows finishing sooner than with NewReno on PfifoFast.
 */
#include "../model/ddnn-ring.h"
#include "ddnn-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::ddnntest;

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
        const uint32_t workers = 4;
        Job t(workers, SmallThesisProfile(), 533333, MilliSeconds(1), [](Ptr<SingleTorHelper> net) {
            net->SetAttribute("QueueDisc", EnumValue(EgressQueue::PRIO_RED));
            net->SetAttribute("EcnThresholdPackets", UintegerValue(20));
        });
        // ns-3's TCP sends ECT only at ToS 0 (see WarnIfEcnLost)
        t.helper.SetAttribute("Tos", UintegerValue(0));
        t.helper.SetAttribute(
            "CongestionControl",
            StringValue(TransportSettings::TenantCongestionControl(congestionControl)));
        t.Install();
        Ptr<SingleTorHelper> network = t.network;
        Simulator::Run();
        *bytesExact = t.job->IsFinished();
        uint64_t sent = 0;
        uint64_t received = 0;
        for (uint32_t r = 0; r < workers; ++r)
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
        for (uint32_t i = 0; i < workers; ++i)
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
        Ptr<SingleTorHelper> network = TunedSingleTor(3, [dctcp](Ptr<SingleTorHelper> net) {
            net->SetAttribute("QueueDisc",
                              EnumValue(dctcp ? EgressQueue::PRIO_RED : EgressQueue::PFIFO_FAST));
            net->SetAttribute("EcnThresholdPackets", UintegerValue(20));
        });
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
 * DCTCP shortens small flows at equal priority (issue 13). A single ToR at 10 Gbit/s whose
 * server 2 is capped at 1 Gbit/s (RateCap): a 50 MB bulk flow from server 0 to server 2, and 21
 * flows of 10 KB from server 1 to server 2, one every 5 ms from 20 ms on, all at ToS 0 (one
 * band: equal priority; ns-3's TCP sends ECN-capable packets only at ToS 0). Run once with
 * NewReno on PfifoFast (1000 packets) and once with DCTCP on PrioRed marking ECN at K = 20
 * packets, the same flows.
 *
 * The switch's egress to server 2 is the bottleneck. NewReno's window grows until the 512 KiB
 * socket buffer bounds it at 362 segments, all but a bandwidth-delay product queued there (base
 * RTT 4 x 10 us of propagation, 12 us for a packet at 1 Gbit/s and 1.2 us at 10 Gbit/s: 4.4
 * packets): about 358 packets, 4.3 ms at 12 us each, below the 1000-packet limit, so no loss
 * ends it. DCTCP keeps that queue near K (at most 3 K). Each small flow crosses that queue at
 * least twice (its SYN, then its data, 7 segments within the initial window), so its FCT with
 * DCTCP is lower by at least 2 x (358 - 3 K) x 12 us = 7.1 ms. The queue, sampled every 100 us
 * from 20 to 125 ms, checks both premises (within 10 % of 358 packets; at most 3 K).
 */
class DctcpSmallFlowFctTestCase : public TestCase
{
  public:
    DctcpSmallFlowFctTestCase()
        : TestCase("DCTCP: small flows next to a long ring finish sooner than with NewReno")
    {
    }

  private:
    static const uint64_t kBulkBytes = 50000000; //!< lasts beyond the run at 1 Gbit/s
    static const uint64_t kSmallBytes = 10000;   //!< 7 segments: within the initial window

    struct Outcome
    {
        double meanFct{0};     //!< of the small flows, seconds
        uint32_t completed{0}; //!< small flows that completed
        double meanQueue{0};   //!< switch egress to server 2, packets
        uint64_t queueSamples{0};
    };

    static void
    Sample(Ptr<QueueDisc> queue, Outcome* outcome)
    {
        outcome->meanQueue += queue->GetNPackets();
        ++outcome->queueSamples;
        if (Simulator::Now() < MilliSeconds(125))
        {
            Simulator::Schedule(
                MicroSeconds(100), &DctcpSmallFlowFctTestCase::Sample, queue, outcome);
        }
    }

    static Outcome
    Run(bool dctcp, uint32_t k)
    {
        const std::string congestion = dctcp ? "ns3::TcpDctcp" : "ns3::TcpNewReno";
        Ptr<SingleTorHelper> tor = TunedSingleTor(3, [dctcp, k](Ptr<SingleTorHelper> net) {
            net->SetAttribute("QueueDisc",
                              EnumValue(dctcp ? EgressQueue::PRIO_RED : EgressQueue::PFIFO_FAST));
            net->SetAttribute("EcnThresholdPackets", UintegerValue(k));
            net->SetAttribute("ImpairedServers", StringValue("2"));
            net->SetAttribute("RateCap", DataRateValue(DataRate("1Gbps")));
        });

        // The bulk flow first (id 0), then the small ones.
        std::vector<ddnn_flow> flows{{0, 0, 2, kBulkBytes, 0}};
        for (uint64_t i = 0; i < 21; ++i)
        {
            flows.push_back({i + 1, 1, 2, kSmallBytes, 20000000 + i * 5000000});
        }
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetAttribute("Tos", UintegerValue(0));
        Ptr<BackgroundTenant> tenant = background->Install(tor, flows);
        tenant->SetAttribute("CongestionControl", StringValue(congestion));

        Outcome outcome;
        Simulator::Schedule(MilliSeconds(20),
                            &DctcpSmallFlowFctTestCase::Sample,
                            tor->GetSwitchQueueDisc(2),
                            &outcome);
        Simulator::Stop(MilliSeconds(150));
        Simulator::Run();
        for (const BackgroundTenant::Flow& flow : tenant->GetFlows())
        {
            if (flow.bytes == kSmallBytes && flow.Completed())
            {
                outcome.meanFct += (flow.end - flow.start).GetSeconds();
                ++outcome.completed;
            }
        }
        outcome.meanFct /= std::max(outcome.completed, 1u);
        outcome.meanQueue /= std::max<uint64_t>(outcome.queueSamples, 1);
        Simulator::Destroy();
        return outcome;
    }

    void
    DoRun() override
    {
        const TransportSettings transport = ddnntest::ApplyTunedTransport();
        const uint32_t k = 20;
        const double packetTime = 1500 * 8 / 1e9; // a full packet at 1 Gbit/s
        const double baseRtt = 4 * 10e-6 + packetTime + packetTime / 10;
        const double bdpPackets = 1e9 * baseRtt / 8 / 1500;
        // The whole segments the socket buffer holds (524288 / 1448 = 362), less the BDP.
        const double newRenoQueue
            = transport.socketBufferBytes / transport.segmentSize - bdpPackets;
        const Outcome newReno = Run(false, k);
        const Outcome dctcp = Run(true, k);
        NS_TEST_ASSERT_MSG_EQ(newReno.completed, 21, "NewReno: every small flow completes");
        NS_TEST_ASSERT_MSG_EQ(dctcp.completed, 21, "DCTCP: every small flow completes");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(dctcp.meanQueue, 3.0 * k, "DCTCP holds the queue near K");
        NS_TEST_ASSERT_MSG_EQ_TOL(newReno.meanQueue,
                                  newRenoQueue,
                                  newRenoQueue * 0.1,
                                  "NewReno: the socket buffer less a BDP stands in the queue");
        const double margin = 2 * (newRenoQueue - 3.0 * k) * packetTime;
        NS_TEST_ASSERT_MSG_LT(dctcp.meanFct,
                              newReno.meanFct - margin,
                              "mean small-flow FCT " << dctcp.meanFct * 1e3 << " ms with DCTCP, "
                                                     << newReno.meanFct * 1e3
                                                     << " ms with NewReno, margin " << margin * 1e3
                                                     << " ms");
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of DCTCP over ECN-marking queue discs.
 */
class DctcpTestSuite : public TestSuite
{
  public:
    DctcpTestSuite()
        : TestSuite("ddnn-dctcp", Type::SYSTEM)
    {
        AddTestCase(new DctcpEcnTestCase);
        AddTestCase(new DctcpQueueTestCase);
        AddTestCase(new DctcpSmallFlowFctTestCase);
    }
};

static DctcpTestSuite g_dctcpTestSuite; //!< registers the suite
