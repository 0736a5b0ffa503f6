/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Link impairments of a single ToR (added delay, rate cap, loss), checked against first
 * principles on a ring's allreduce.
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

#include <cmath>

using namespace ns3;
using namespace ns3::ddnntest;

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
        auto impair = [&](Ptr<SingleTorHelper> network) {
            network->SetAttribute("AddedDelay", TimeValue(MicroSeconds(addedDelayUs)));
            network->SetAttribute("RateCap",
                                  DataRateValue(DataRate(rateCap.empty() ? "0bps" : rateCap)));
            network->SetAttribute("ImpairedServers", StringValue(rateCap.empty() ? "" : "1"));
        };
        Job t(4, WriteProfile("impaired.csv", {bytes, bytes}), bytes, MicroSeconds(100), impair);
        t.Install();
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
        const uint32_t workers = 4;
        Job t(
            workers, SmallThesisProfile(), 533333, MilliSeconds(1), [p](Ptr<SingleTorHelper> net) {
                net->SetAttribute("LossRate", DoubleValue(p));
            });
        t.Install();
        Ptr<SingleTorHelper> network = t.network;
        uint64_t received = 0;
        uint64_t lost = 0;
        for (uint32_t i = 0; i < workers; ++i)
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
        const uint32_t n = workers;
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
 * Test suite of the link impairments.
 */
class ImpairmentsTestSuite : public TestSuite
{
  public:
    ImpairmentsTestSuite()
        : TestSuite("ddnn-impairments", Type::SYSTEM)
    {
        AddTestCase(new DelayAndRateImpairmentTestCase);
        AddTestCase(new LossImpairmentTestCase);
    }
};

static ImpairmentsTestSuite g_impairmentsTestSuite; //!< registers the suite
