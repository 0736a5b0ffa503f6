/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * LeastSlackQueueDisc: the earliest deadline first, ties in arrival order; the hybrid mode's
 * margin; the drop rule and the statistics' conservation under mixed traffic against a
 * reference model; and on one rack over TCP, tags from both tenants, the rule of each mode at
 * every egress, and a packet's slack falling by exactly the time between its two hops.
 */
#include "ddnn-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/test.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::ddnntest;

namespace
{

/** An item of `bytes` due at `deadlineNs` for `tenant` (NONE: untagged); its sequence travels
 * as the protocol number. */
Ptr<QueueDiscItem>
MakeItem(int64_t deadlineNs, TenantKind::Tenant tenant, uint16_t sequence, uint32_t bytes = 1000)
{
    Ptr<Packet> p = Create<Packet>(bytes);
    if (tenant != TenantKind::NONE)
    {
        p->AddPacketTag(SlackTag(deadlineNs, tenant));
    }
    return Create<TestQueueDiscItem>(p, sequence);
}

Ptr<LeastSlackQueueDisc>
MakeDisc(LeastSlackQueueDisc::Mode mode, uint32_t packets, Time margin = Seconds(0))
{
    Ptr<LeastSlackQueueDisc> disc = CreateObject<LeastSlackQueueDisc>();
    disc->SetAttribute("Mode", EnumValue(mode));
    disc->SetAttribute("MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, packets)));
    disc->SetAttribute("Margin", TimeValue(margin));
    disc->SetAttribute("LinkRate", DataRateValue(DataRate("1Gbps")));
    disc->Initialize();
    return disc;
}

/**
 * \ingroup ddnn-tests
 * Pure mode at time 0: items leave by deadline across both tenants, equal deadlines in arrival
 * order within a band and the background's first across bands, an untagged item as the
 * background's, due on arrival (time 0: first).
 */
class OrderTestCase : public TestCase
{
  public:
    OrderTestCase()
        : TestCase("least-slack: earliest deadline first, ties in arrival order")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<LeastSlackQueueDisc> disc = MakeDisc(LeastSlackQueueDisc::PURE, 100);
        // (deadline, tenant, sequence)
        const std::vector<std::tuple<int64_t, TenantKind::Tenant, uint16_t>> in = {
            {5000, TenantKind::BACKGROUND, 1},
            {3000, TenantKind::TRAINING, 2},
            {5000, TenantKind::TRAINING, 3},
            {9000, TenantKind::BACKGROUND, 4},
            {3000, TenantKind::TRAINING, 5},
            {0, TenantKind::NONE, 6},
            {5000, TenantKind::BACKGROUND, 7},
        };
        for (const auto& [deadline, tenant, sequence] : in)
        {
            NS_TEST_ASSERT_MSG_EQ(
                disc->Enqueue(MakeItem(deadline, tenant, sequence)), true, "enqueued");
        }
        // Untagged first (due now), then 3000 (2, 5), then 5000: the background's (1, 7) before
        // the training's (3), then 9000.
        const std::vector<uint16_t> expected = {6, 2, 5, 1, 7, 3, 4};
        for (uint16_t sequence : expected)
        {
            Ptr<QueueDiscItem> item = disc->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "an item");
            NS_TEST_ASSERT_MSG_EQ(item->GetProtocol(), sequence, "served in deadline order");
        }
        NS_TEST_ASSERT_MSG_EQ(disc->Dequeue(), nullptr, "empty");
        NS_TEST_ASSERT_MSG_EQ(disc->GetUntaggedPackets(), 1, "the untagged item counted");
        NS_TEST_ASSERT_MSG_EQ(disc->GetServedPackets(LeastSlackQueueDisc::TRAINING_BAND),
                              3,
                              "training band: the three training items");
        NS_TEST_ASSERT_MSG_EQ(disc->GetServedPackets(LeastSlackQueueDisc::BACKGROUND_BAND),
                              4,
                              "background band: three background items and the untagged");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Hybrid mode, margin 1 ms, at 1 Gbit/s (a 1000-byte item takes 8 us): a training item due at
 * 5 ms waits behind the background at time 0 (slack 5 ms - 8 us, above the margin) and goes
 * first at 4.5 ms (slack 0.5 ms - 8 us, below), although the background item is older.
 */
class HybridMarginTestCase : public TestCase
{
  public:
    HybridMarginTestCase()
        : TestCase("least-slack-hybrid: the background first until training's slack < margin")
    {
    }

  private:
    static void
    Take(Ptr<LeastSlackQueueDisc> disc, std::vector<uint16_t>* served)
    {
        Ptr<QueueDiscItem> item = disc->Dequeue();
        served->push_back(item ? item->GetProtocol() : 0);
    }

    void
    DoRun() override
    {
        Ptr<LeastSlackQueueDisc> disc = MakeDisc(LeastSlackQueueDisc::HYBRID, 100, MilliSeconds(1));
        const int64_t ms = 1000000;
        disc->Enqueue(MakeItem(5 * ms, TenantKind::TRAINING, 1));
        disc->Enqueue(MakeItem(100 * ms, TenantKind::BACKGROUND, 2));
        disc->Enqueue(MakeItem(100 * ms, TenantKind::BACKGROUND, 3));
        std::vector<uint16_t> served;
        Simulator::Schedule(Seconds(0), &Take, disc, &served);
        Simulator::Schedule(MicroSeconds(3990), &Take, disc, &served); // slack 1.002 ms
        Simulator::Schedule(MicroSeconds(4500), &Take, disc, &served);
        Simulator::Schedule(MicroSeconds(4600), &Take, disc, &served);
        Simulator::Run();
        const std::vector<uint16_t> expected = {2, 3, 1, 0};
        NS_TEST_ASSERT_MSG_EQ(served.size(), expected.size(), "four dequeues");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(served[i], expected[i], "dequeue " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(disc->GetLatePackets(LeastSlackQueueDisc::TRAINING_BAND),
                              0,
                              "served with 0.5 ms to spare: not late");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * The drop rule and the statistics, checked against a reference model over 20,000 random
 * operations on a 50-packet disc (both modes): each dequeue gives the item the rule names,
 * a full disc drops the latest deadline (the arriving item before enqueue, a queued one after
 * dequeue as "Most slack"), the per-band and late counters agree with the items' tags, and the
 * counts conserve packets: received = dropped before enqueue + enqueued, enqueued = dequeued +
 * queued, dequeued = taken + dropped after dequeue.
 */
class RandomMixTestCase : public TestCase
{
  public:
    explicit RandomMixTestCase(LeastSlackQueueDisc::Mode mode)
        : TestCase(std::string("least-slack: drop rule and conservation, mixed traffic, ")
                   + (mode == LeastSlackQueueDisc::PURE ? "pure" : "hybrid"))
        , m_mode(mode)
    {
    }

  private:
    struct Queued
    {
        int64_t deadline;
        uint64_t arrival;
        uint16_t sequence;

        bool
        operator<(const Queued& other) const
        {
            return deadline != other.deadline ? deadline < other.deadline : arrival < other.arrival;
        }
    };

    void
    Step(uint32_t n)
    {
        if (n == 0)
        {
            return;
        }
        const int64_t now = Simulator::Now().GetNanoSeconds();
        if (m_random->GetValue() < 0.55)
        {
            const uint32_t band = m_random->GetValue() < 0.5 ? 0 : 1;
            const TenantKind::Tenant tenant
                = band == 1 ? TenantKind::TRAINING : TenantKind::BACKGROUND;
            const int64_t deadline = now + static_cast<int64_t>(m_random->GetValue() * 2e6);
            const uint16_t sequence = static_cast<uint16_t>(++m_sequence);
            ++m_received;
            std::set<Queued>* latestBand = nullptr;
            for (auto& b : m_model)
            {
                if (!b.empty() && std::prev(b.end())->deadline > deadline
                    && (!latestBand
                        || std::prev(b.end())->deadline > std::prev(latestBand->end())->deadline))
                {
                    latestBand = &b;
                }
            }
            const bool full = m_model[0].size() + m_model[1].size() >= 50;
            const bool accepted = m_disc->Enqueue(MakeItem(deadline, tenant, sequence));
            if (full && !latestBand)
            {
                NS_TEST_ASSERT_MSG_EQ(accepted, false, "full: the arriving item had most slack");
                ++m_droppedBefore;
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(accepted, true, "room, or a queued item had more slack");
                if (full)
                {
                    latestBand->erase(std::prev(latestBand->end()));
                    ++m_droppedAfter;
                }
                m_model[band].insert({deadline, m_arrival++, sequence});
            }
        }
        else if (!m_model[0].empty() || !m_model[1].empty())
        {
            uint32_t band;
            if (m_model[1].empty())
            {
                band = 0;
            }
            else if (m_model[0].empty())
            {
                band = 1;
            }
            else if (m_mode == LeastSlackQueueDisc::PURE)
            {
                band = m_model[1].begin()->deadline < m_model[0].begin()->deadline ? 1 : 0;
            }
            else
            {
                // 1000 bytes at 1 Gbit/s: 8 us; margin 0.5 ms
                band = m_model[1].begin()->deadline - now - 8000 < 500000 ? 1 : 0;
            }
            const Queued expected = *m_model[band].begin();
            m_model[band].erase(m_model[band].begin());
            Ptr<QueueDiscItem> item = m_disc->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "an item");
            NS_TEST_ASSERT_MSG_EQ(item->GetProtocol(), expected.sequence, "the rule's item");
            ++m_taken;
            ++m_servedOf[band];
            m_lateOf[band] += expected.deadline - now - 8000 < 0;
        }
        Simulator::Schedule(
            NanoSeconds(m_random->GetInteger(0, 20000)), &RandomMixTestCase::Step, this, n - 1);
    }

    void
    DoRun() override
    {
        m_disc = MakeDisc(m_mode, 50, MicroSeconds(500));
        m_random = CreateObject<UniformRandomVariable>();
        m_random->SetStream(7);
        Simulator::Schedule(Seconds(0), &RandomMixTestCase::Step, this, 20000);
        Simulator::Run();
        const QueueDisc::Stats& stats = m_disc->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalReceivedPackets, m_received, "received");
        NS_TEST_ASSERT_MSG_EQ(
            stats.nTotalDroppedPacketsBeforeEnqueue, m_droppedBefore, "dropped on arrival");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPacketsAfterDequeue, m_droppedAfter, "pushed out");
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(LeastSlackQueueDisc::MOST_SLACK_DROP),
                              m_droppedBefore + m_droppedAfter,
                              "every drop for having the most slack");
        NS_TEST_ASSERT_MSG_GT(m_droppedBefore, 0, "the mix filled the disc");
        NS_TEST_ASSERT_MSG_GT(m_droppedAfter, 0, "and pushed items out");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalReceivedPackets,
                              stats.nTotalDroppedPacketsBeforeEnqueue + stats.nTotalEnqueuedPackets,
                              "received = dropped before enqueue + enqueued");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalEnqueuedPackets,
                              stats.nTotalDequeuedPackets + m_disc->GetNPackets(),
                              "enqueued = dequeued + queued");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDequeuedPackets,
                              m_taken + stats.nTotalDroppedPacketsAfterDequeue,
                              "dequeued = taken + dropped after dequeue");
        NS_TEST_ASSERT_MSG_EQ(
            m_disc->GetNPackets(), m_model[0].size() + m_model[1].size(), "the model's backlog");
        for (uint32_t band = 0; band < 2; ++band)
        {
            NS_TEST_ASSERT_MSG_EQ(m_disc->GetServedPackets(band), m_servedOf[band], "served");
            NS_TEST_ASSERT_MSG_EQ(m_disc->GetLatePackets(band), m_lateOf[band], "late");
        }
        m_disc = nullptr;
        Simulator::Destroy();
    }

    LeastSlackQueueDisc::Mode m_mode;
    Ptr<LeastSlackQueueDisc> m_disc;
    Ptr<UniformRandomVariable> m_random;
    std::set<Queued> m_model[2];
    uint64_t m_arrival{0};
    uint32_t m_sequence{0};
    uint64_t m_received{0};
    uint64_t m_droppedBefore{0};
    uint64_t m_droppedAfter{0};
    uint64_t m_taken{0};
    uint64_t m_servedOf[2]{0, 0};
    uint64_t m_lateOf[2]{0, 0};
};

/**
 * \ingroup ddnn-tests
 * One rack of 3 servers at 1 Gbit/s, every egress least-slack: a ring over TCP with SlackTags
 * (5 ms compute) beside background flows with SlackTags. At every egress each packet leaves in
 * its tag's band; the mode's rule holds whenever both bands hold packets (pure: no earlier
 * deadline waits in the other band; hybrid: training goes first only below the margin); both
 * tenants' packets and ACKs arrive tagged (nothing untagged); and every packet seen at a
 * server's egress and again at the switch's has lost exactly the time between the two in slack
 * (the links have one rate: the transmission times cancel).
 */
class RackTestCase : public TestCase
{
  public:
    explicit RackTestCase(LeastSlackQueueDisc::Mode mode)
        : TestCase(std::string("least-slack on one rack over TCP: tags, the rule, two hops, ")
                   + (mode == LeastSlackQueueDisc::PURE ? "pure" : "hybrid"))
        , m_mode(mode)
    {
    }

  private:
    struct Hop
    {
        int64_t nowNs;
        int64_t slackNs;
    };

    struct Context
    {
        RackTestCase* test;
        Ptr<LeastSlackQueueDisc> disc;
        bool atServer;
    };

    static void
    Served(Context* c, Ptr<const QueueDiscItem> item, uint32_t band, Time slack)
    {
        RackTestCase* t = c->test;
        SlackTag tag;
        const bool tagged = item->GetPacket()->PeekPacketTag(tag);
        // The TCP header's ports, sequence and acknowledgment numbers, and flags.
        uint8_t tcp[14] = {};
        item->GetPacket()->CopyData(tcp, sizeof tcp);
        // Only the resets TCP sends for a closed connection (from no socket) go untagged.
        t->m_untagged += !tagged && !(tcp[13] & TcpHeader::RST);
        t->m_wrongBand += band != LeastSlackQueueDisc::BandOf(item->GetPacket());
        t->m_servedOf[band]++;
        auto other = DynamicCast<SlackOrderedQueue>(c->disc->GetInternalQueue(1 - band));
        if (other->GetNPackets() > 0)
        {
            ++t->m_contended;
            if (t->m_mode == LeastSlackQueueDisc::PURE)
            {
                t->m_broken += other->GetEarliestDeadlineNs() < tag.GetDeadlineNs();
            }
            else if (band == LeastSlackQueueDisc::TRAINING_BAND)
            {
                t->m_broken += slack >= t->m_margin;
            }
        }
        // A segment: its addresses, its TCP header's first 14 bytes and its deadline.
        auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        const Segment segment{ip->GetHeader().GetSource().Get(),
                              ip->GetHeader().GetDestination().Get(),
                              std::string(tcp, tcp + sizeof tcp),
                              tagged ? tag.GetDeadlineNs() : -1};
        const Hop hop{Simulator::Now().GetNanoSeconds(), slack.GetNanoSeconds()};
        if (!tagged)
        {
            return; // due on arrival at each hop: its slack is not carried
        }
        if (c->atServer)
        {
            t->m_first[segment].push_back(hop);
        }
        else if (auto first = t->m_first.find(segment);
                 first != t->m_first.end() && !first->second.empty())
        {
            // Copies of one segment (duplicate ACKs) leave in order: one deadline, one band.
            const Hop before = first->second.front();
            first->second.pop_front();
            ++t->m_twoHops;
            t->m_slackMismatch += before.slackNs - hop.slackNs != hop.nowNs - before.nowNs;
        }
    }

    void
    DoRun() override
    {
        m_margin = MicroSeconds(200);
        const std::string kind
            = m_mode == LeastSlackQueueDisc::PURE ? "least-slack" : "least-slack-hybrid";
        Job t(3, ScaledThesisProfile(100), 53334, MilliSeconds(5), [&](Ptr<SingleTorHelper> n) {
            n->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
            n->SetAttribute("QueueDisc", EnumValue(EgressQueue::FromScenario(kind)));
        });
        t.helper.SetAttribute("Iterations", UintegerValue(3));
        t.helper.SetAttribute("SlackTags", BooleanValue(true));
        t.Install();
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetPatternAttribute(
            "CdfFile", StringValue(WriteTempFile("uniform.csv", "0,0\n100000,1\n")));
        background->SetPatternAttribute("FlowRate", DoubleValue(2000));
        background->SetAttribute("Stop", TimeValue(MilliSeconds(30)));
        Ptr<BackgroundTenant> tenant = background->Install(t.network);
        tenant->SetAttribute("SlackTags", BooleanValue(true));
        tenant->SetAttribute("SlackRate", DataRateValue(DataRate("1Gbps")));

        std::vector<std::unique_ptr<Context>> contexts;
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (bool atServer : {true, false})
            {
                Ptr<LeastSlackQueueDisc> disc = DynamicCast<LeastSlackQueueDisc>(
                    atServer ? t.network->GetServerQueueDisc(i) : t.network->GetSwitchQueueDisc(i));
                NS_TEST_ASSERT_MSG_NE(disc, nullptr, "a least-slack disc on every egress");
                disc->SetAttribute("Margin", TimeValue(m_margin)); // read at each dequeue
                disc->SetAttribute("LinkRate", DataRateValue(DataRate("1Gbps")));
                contexts.push_back(std::make_unique<Context>(Context{this, disc, atServer}));
                disc->TraceConnectWithoutContext(
                    "Served", MakeBoundCallback(&RackTestCase::Served, contexts.back().get()));
            }
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t.job->IsFinished(), true, "the job finished");
        NS_TEST_ASSERT_MSG_EQ(m_untagged, 0, "every packet of both tenants tagged");
        NS_TEST_ASSERT_MSG_EQ(m_wrongBand, 0, "each packet in its tag's band");
        NS_TEST_ASSERT_MSG_GT(m_servedOf[0], 100, "background packets served");
        NS_TEST_ASSERT_MSG_GT(m_servedOf[1], 100, "training packets served");
        NS_TEST_ASSERT_MSG_GT(m_contended, 50, "the bands met");
        NS_TEST_ASSERT_MSG_EQ(m_broken, 0, "the mode's rule held every time the bands met");
        NS_TEST_ASSERT_MSG_GT(m_twoHops, 1000, "segments seen at both hops");
        NS_TEST_ASSERT_MSG_EQ(m_slackMismatch, 0, "slack fell by the time between the hops");
        Simulator::Destroy();
    }

    LeastSlackQueueDisc::Mode m_mode;
    Time m_margin;
    uint64_t m_untagged{0};
    uint64_t m_wrongBand{0};
    uint64_t m_servedOf[2]{0, 0};
    uint64_t m_contended{0};
    uint64_t m_broken{0};
    /** (source, destination, TCP header bytes, deadline) */
    using Segment = std::tuple<uint32_t, uint32_t, std::string, int64_t>;
    std::map<Segment, std::deque<Hop>> m_first; //!< at a server's egress, not yet at the switch's
    uint64_t m_twoHops{0};
    uint64_t m_slackMismatch{0};
};

class LeastSlackTestSuite : public TestSuite
{
  public:
    LeastSlackTestSuite()
        : TestSuite("ddnn-least-slack", Type::UNIT)
    {
        AddTestCase(new OrderTestCase);
        AddTestCase(new HybridMarginTestCase);
        AddTestCase(new RandomMixTestCase(LeastSlackQueueDisc::PURE));
        AddTestCase(new RandomMixTestCase(LeastSlackQueueDisc::HYBRID));
        AddTestCase(new RackTestCase(LeastSlackQueueDisc::PURE));
        AddTestCase(new RackTestCase(LeastSlackQueueDisc::HYBRID));
    }
};

static LeastSlackTestSuite g_leastSlackTestSuite;

} // namespace
