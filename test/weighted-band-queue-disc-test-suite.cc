/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * WeightedBandQueueDisc: long-run byte shares equal the weights with every band backlogged,
 * an idle band's share is redistributed in the ratio of the others' weights, packets keep
 * their order within a band.
 */
#include "ddnn-test-util.h"

#include "ns3/ddnn-module.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <array>
#include <deque>

using namespace ns3;

namespace
{

// Socket priorities that the default Priomap sends to bands 0, 1 and 2 (ToS 0x10, 0x00, 0x08).
const uint8_t kPriorityOfBand[] = {6, 0, 2};

Ptr<QueueDiscItem>
MakeItem(uint32_t band, uint32_t bytes, uint32_t sequence)
{
    Ptr<Packet> p = Create<Packet>(bytes);
    SocketPriorityTag tag;
    tag.SetPriority(kPriorityOfBand[band]);
    p->AddPacketTag(tag);
    // The sequence travels as the protocol number: enough to check the order within a band.
    return Create<ddnntest::TestQueueDiscItem>(p, static_cast<uint16_t>(sequence));
}

Ptr<WeightedBandQueueDisc>
MakeDisc(const std::string& weights)
{
    Ptr<WeightedBandQueueDisc> disc = CreateObject<WeightedBandQueueDisc>();
    disc->SetAttribute("Weights", StringValue(weights));
    disc->Initialize();
    return disc;
}

/**
 * Keeps the backlogged bands at 20 packets each (sizes differ per band, so the shares are of
 * bytes, not packets) and dequeues `rounds` packets: the byte share of band i must be
 * weight[i] / (sum of the backlogged bands' weights) within 2 % of itself.
 */
class SharesTestCase : public TestCase
{
  public:
    SharesTestCase(std::string weights, std::array<bool, 3> backlogged, std::array<double, 3> share)
        : TestCase("shares with weights '" + weights + "'")
        , m_weights(weights)
        , m_backlogged(backlogged)
        , m_share(share)
    {
    }

  private:
    void
    DoRun() override
    {
        const uint32_t bytes[] = {1000, 1500, 500};
        Ptr<WeightedBandQueueDisc> disc = MakeDisc(m_weights);
        std::array<uint32_t, 3> queued{0, 0, 0};
        std::array<double, 3> sent{0, 0, 0};
        std::array<std::deque<uint32_t>, 3> order;
        uint32_t sequence = 0;
        for (int n = 0; n < 60000; n++)
        {
            for (uint32_t band = 0; band < 3; band++)
            {
                while (m_backlogged[band] && queued[band] < 20)
                {
                    NS_TEST_ASSERT_MSG_EQ(
                        disc->Enqueue(MakeItem(band, bytes[band], sequence)), true, "enqueued");
                    order[band].push_back(sequence++ & 0xffff);
                    queued[band]++;
                }
            }
            Ptr<QueueDiscItem> item = disc->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "a backlogged disc dequeues");
            const uint32_t size = item->GetSize();
            const uint32_t band = size == 1000 ? 0 : size == 1500 ? 1 : 2;
            NS_TEST_ASSERT_MSG_EQ(m_backlogged[band], true, "only backlogged bands send");
            NS_TEST_ASSERT_MSG_EQ(item->GetProtocol(), order[band].front(), "FIFO within a band");
            order[band].pop_front();
            queued[band]--;
            sent[band] += size;
        }
        const double total = sent[0] + sent[1] + sent[2];
        for (uint32_t band = 0; band < 3; band++)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(sent[band] / total,
                                      m_share[band],
                                      0.02 * m_share[band] + 1e-12,
                                      "byte share of band " << band);
        }
    }

    std::string m_weights;
    std::array<bool, 3> m_backlogged;
    std::array<double, 3> m_share;
};

/** The edges of the round: nothing to send, and a band that empties. */
class EmptyDiscTestCase : public TestCase
{
  public:
    EmptyDiscTestCase()
        : TestCase("an empty disc dequeues nothing; a band that empties leaves the round")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<WeightedBandQueueDisc> disc = MakeDisc("2 1 1");
        NS_TEST_ASSERT_MSG_EQ(disc->Dequeue(), nullptr, "empty");
        disc->Enqueue(MakeItem(2, 100, 1));
        NS_TEST_ASSERT_MSG_EQ(disc->Dequeue()->GetProtocol(), 1, "the one packet");
        NS_TEST_ASSERT_MSG_EQ(disc->Dequeue(), nullptr, "empty again");
        NS_TEST_ASSERT_MSG_EQ(disc->GetNPackets(), 0, "nothing left");
    }
};

class WeightedBandQueueDiscTestSuite : public TestSuite
{
  public:
    WeightedBandQueueDiscTestSuite()
        : TestSuite("ddnn-weighted-band-queue-disc", Type::UNIT)
    {
        AddTestCase(new SharesTestCase("3 1 1", {true, true, true}, {0.6, 0.2, 0.2}));
        AddTestCase(new SharesTestCase("1 1 1", {true, true, true}, {1 / 3.0, 1 / 3.0, 1 / 3.0}));
        // A training band at 10 % of the link against two background bands.
        AddTestCase(new SharesTestCase("4.5 4.5 1", {true, true, true}, {0.45, 0.45, 0.1}));
        // Band 0 idle: its share goes to bands 1 and 2 in the ratio of their weights.
        AddTestCase(new SharesTestCase("3 1 2", {false, true, true}, {0, 1 / 3.0, 2 / 3.0}));
        AddTestCase(new EmptyDiscTestCase);
    }
};

WeightedBandQueueDiscTestSuite g_weightedBandQueueDiscTestSuite;

} // namespace
