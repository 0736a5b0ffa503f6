/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ddnn's reliable multicast transport over real ns-3 packets, checked against first
 * principles on a single ToR with no other traffic: the switch replicates the group's
 * packets along MulticastRoutes, so the sender's link carries the message once, not once per
 * receiver; every receiver gets every byte, with a lossy link too, where the repairs are
 * counted; a route that cannot be built is one line.
 */
#include "ddnn-test-util.h"

#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kGroup("239.1.1.1");

/** What one message from server 0 to servers 1..receivers measured. */
struct Outcome
{
    MulticastSender::Stats sender;
    std::vector<MulticastReceiver::Stats> receivers;
    std::vector<uint64_t> completedBytes; //!< per receiver, by its receive callback
    uint64_t senderCompletions{0};
    Time completed;                          //!< when the sender heard the last DONE
    uint64_t uplinkBytes;                    //!< server 0's queue disc: IPv4 bytes sent
    uint64_t downlinkBytes;                  //!< the switch's disc towards server 1
    uint32_t spineCopies{0};                 //!< a fabric's leaf uplinks that carried the message
    std::vector<uint64_t> downlinkBandBytes; //!< per band of that disc: bytes it took in
};

void
ReceivedMessage(uint64_t* total, Ipv4Address, uint32_t, uint64_t bytes)
{
    *total += bytes;
}

void
SentMessage(Outcome* outcome, uint32_t, uint64_t)
{
    outcome->senderCompletions++;
    outcome->completed = Simulator::Now();
}

/** The root queue disc of a server's uplink, and of the other end of its link. */
std::pair<Ptr<QueueDisc>, Ptr<QueueDisc>>
DiscsOf(Ptr<ServerTopology> network, uint32_t server)
{
    Ptr<NetDevice> up = network->GetServerDevice(server);
    Ptr<Channel> channel = up->GetChannel();
    Ptr<NetDevice> down = channel->GetDevice(channel->GetDevice(0) == up ? 1 : 0);
    auto disc = [](Ptr<NetDevice> device) {
        return device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
            device);
    };
    return {disc(up), disc(down)};
}

/** One message of `bytes` from server 0 of `network` to its servers 1..receivers, at `tos`. */
Outcome
SendOneMessage(Ptr<ServerTopology> network, uint32_t receivers, uint64_t bytes, uint8_t tos = 0x10)
{
    NodeContainer members;
    Outcome outcome;
    outcome.completedBytes.assign(receivers, 0);
    std::vector<Ptr<MulticastReceiver>> ends;
    for (uint32_t r = 0; r < receivers; ++r)
    {
        members.Add(network->GetServer(r + 1));
        Ptr<MulticastReceiver> end = CreateObject<MulticastReceiver>();
        end->Setup(network->GetServer(r + 1), r);
        end->SetReceiveCallback(MakeBoundCallback(&ReceivedMessage, &outcome.completedBytes[r]));
        ends.push_back(end);
    }
    MulticastRoutes::Add(network->GetServer(0), kGroup, members);
    Ptr<MulticastSender> sender = CreateObject<MulticastSender>();
    sender->SetAttribute("Tos", UintegerValue(tos));
    sender->Setup(network->GetServer(0), kGroup, receivers);
    sender->SetCompleteCallback(MakeBoundCallback(&SentMessage, &outcome));
    sender->Send(bytes);
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    outcome.sender = sender->GetStats();
    for (const auto& end : ends)
    {
        outcome.receivers.push_back(end->GetStats());
    }
    outcome.uplinkBytes = DiscsOf(network, 0).first->GetStats().nTotalSentBytes;
    outcome.downlinkBytes = DiscsOf(network, 1).second->GetStats().nTotalSentBytes;
    for (Ptr<Object> band : EgressQueue::BandQueues(DiscsOf(network, 1).second))
    {
        Ptr<QueueBase> queue = DynamicCast<QueueBase>(band);
        outcome.downlinkBandBytes.push_back(queue ? queue->GetTotalReceivedBytes() : 0);
    }
    if (Ptr<FabricTopology> fabric = DynamicCast<FabricTopology>(network))
    {
        for (const auto& [tier, devices] : fabric->GetTiers())
        {
            for (Ptr<NetDevice> device :
                 tier == "leaf_spine_up" ? devices : std::vector<Ptr<NetDevice>>())
            {
                Ptr<QueueDisc> disc
                    = device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
                        device);
                outcome.spineCopies += disc->GetStats().nTotalSentBytes >= bytes;
            }
        }
    }
    Simulator::Destroy();
    return outcome;
}

} // namespace

/**
 * \ingroup ddnn-tests
 * No loss, a 1 MB message to 2 and to 5 receivers: each packet leaves the sender once (its
 * link carries the payload and 51 bytes of headers per packet, whatever the number of
 * receivers: a w-th of unicast distribution), each receiver's link the same bytes, every
 * receiver gets every byte once, no NACK, no repair; the message takes its packets' time at
 * the link rate (within 2 %); sent at ToS 0x08, the switch forwards it in PfifoFast's band 2,
 * as its ToS says (ns-3's own multicast forwarding would put it in band 1).
 */
class MulticastLosslessTestCase : public TestCase
{
  public:
    MulticastLosslessTestCase()
        : TestCase("multicast: the sender's link carries the message once for any receivers")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bytes = 1000000;
        const uint64_t packets = (bytes + 1399) / 1400;
        const uint64_t wire = bytes + packets * (MulticastHeader::SIZE + 8 + 20); // IPv4
        for (uint32_t receivers : {2, 5})
        {
            // ToS 0x08: PfifoFast's band 2, at the host and, forwarded, at the switch.
            const Outcome o
                = SendOneMessage(ddnntest::GigabitRack(receivers + 1, 0), receivers, bytes, 0x08);
            const std::string n = std::to_string(receivers) + " receivers: ";
            NS_TEST_ASSERT_MSG_EQ(o.senderCompletions, 1, n << "the message completed once");
            NS_TEST_ASSERT_MSG_EQ(o.sender.originals, packets, n << "each packet once");
            NS_TEST_ASSERT_MSG_EQ(
                o.sender.repairs + o.sender.probes + o.sender.nacks, 0, n << "nothing lost");
            NS_TEST_ASSERT_MSG_EQ(o.uplinkBytes, wire, n << "one copy on the sender's link");
            // The receiver's link: the data, and the ToR's copy of nothing else.
            NS_TEST_ASSERT_MSG_EQ(o.downlinkBytes, wire, n << "one copy to a receiver");
            NS_TEST_ASSERT_MSG_EQ(o.downlinkBandBytes.size(), 3, n << "PfifoFast's bands");
            NS_TEST_ASSERT_MSG_EQ(o.downlinkBandBytes[2], wire, n << "the switch keeps the band");
            for (uint32_t r = 0; r < receivers; ++r)
            {
                NS_TEST_ASSERT_MSG_EQ(o.completedBytes[r], bytes, n << "receiver " << r);
                NS_TEST_ASSERT_MSG_EQ(o.receivers[r].bytes, bytes, n << "receiver " << r);
                NS_TEST_ASSERT_MSG_EQ(o.receivers[r].duplicates, 0, n << "receiver " << r);
            }
            // Paced at the link rate with 2 bytes of PPP: the last DONE is back about when
            // the last packet is out.
            const double ideal = (wire + packets * 2) * 8 / 1e9;
            NS_TEST_ASSERT_MSG_EQ_TOL(o.completed.GetSeconds(), ideal, ideal * 0.02, n << "time");
        }
    }
};

/**
 * \ingroup ddnn-tests
 * Two of 4 receivers' links lose 2 % of their packets each way: every receiver still gets
 * every byte once, the lost packets come back as repairs (at least one; the sender's link
 * carries the originals once plus the repairs and probes), and the NACKs arrived.
 */
class MulticastLossTestCase : public TestCase
{
  public:
    MulticastLossTestCase()
        : TestCase("multicast: with lossy links every byte arrives, the repairs counted")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bytes = 1000000;
        const uint64_t packets = (bytes + 1399) / 1400;
        const Outcome o = SendOneMessage(ddnntest::GigabitRack(5, 0.02), 4, bytes);
        NS_TEST_ASSERT_MSG_EQ(o.senderCompletions, 1, "the message completed");
        NS_TEST_ASSERT_MSG_EQ(o.sender.originals, packets, "each packet once first");
        NS_TEST_ASSERT_MSG_GT(o.sender.repairs, 0, "lost packets repaired");
        NS_TEST_ASSERT_MSG_GT(o.sender.nacks, 0, "NACKs heard");
        const uint64_t sent = o.sender.originals + o.sender.repairs + o.sender.probes;
        NS_TEST_ASSERT_MSG_EQ(o.uplinkBytes,
                              o.sender.bytes + sent * (MulticastHeader::SIZE + 8 + 20),
                              "the sender's link: each packet sent, once");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(o.completedBytes[r], bytes, "receiver " << r);
            NS_TEST_ASSERT_MSG_EQ(o.receivers[r].bytes, bytes, "receiver " << r);
        }
        NS_TEST_ASSERT_MSG_GT(
            o.receivers[0].nacks + o.receivers[1].nacks, 0, "the lossy receivers asked");
    }
};

/**
 * \ingroup ddnn-tests
 * A leaf-spine of 2 leaves of 4 servers and 2 spines (FlowHashEcmpRouting): server 0 sends to
 * servers 1..5, in both racks. Every receiver gets every byte; the sender's link carries the
 * message once; of the leaves' uplinks only rack 0's towards one spine carries it, once (the
 * tree crosses one spine), and rack 1's leaf hands it to each of its members.
 */
class MulticastLeafSpineTestCase : public TestCase
{
  public:
    MulticastLeafSpineTestCase()
        : TestCase("multicast on a leaf-spine: one copy per link of the tree")
    {
    }

  private:
    void
    DoRun() override
    {
        const uint64_t bytes = 300000;
        const uint64_t packets = (bytes + 1399) / 1400;
        const uint64_t wire = bytes + packets * (MulticastHeader::SIZE + 8 + 20);
        Ptr<LeafSpineHelper> fabric = CreateObject<LeafSpineHelper>();
        fabric->SetAttribute("Leaves", UintegerValue(2));
        fabric->SetAttribute("ServersPerLeaf", UintegerValue(4));
        fabric->SetAttribute("Spines", UintegerValue(2));
        fabric->Create();
        const Outcome o = SendOneMessage(fabric, 5, bytes);
        NS_TEST_ASSERT_MSG_EQ(o.senderCompletions, 1, "the message completed");
        NS_TEST_ASSERT_MSG_EQ(o.sender.repairs + o.sender.probes, 0, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(o.uplinkBytes, wire, "one copy on the sender's link");
        NS_TEST_ASSERT_MSG_EQ(o.downlinkBytes, wire, "one copy to a receiver of rack 0");
        for (uint32_t r = 0; r < 5; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(o.completedBytes[r], bytes, "receiver " << r);
        }
        NS_TEST_ASSERT_MSG_EQ(o.spineCopies, 1, "one leaf uplink carried the group");
    }
};

/**
 * \ingroup ddnn-tests
 * Routes that cannot be built: a member on no link of the source's network.
 */
class MulticastRoutesErrorTestCase : public TestCase
{
  public:
    MulticastRoutesErrorTestCase()
        : TestCase("multicast routes: an unreachable member is one line")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(2);
        Ptr<Node> alone = CreateObject<Node>();
        const std::string error = ddnntest::ErrorOf(
            [&]() { MulticastRoutes::Add(tor->GetServer(0), kGroup, NodeContainer(alone)); });
        const bool named = error.find("cannot be reached") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, error);
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the reliable multicast transport.
 */
class MulticastTestSuite : public TestSuite
{
  public:
    MulticastTestSuite()
        : TestSuite("ddnn-multicast", Type::SYSTEM)
    {
        AddTestCase(new MulticastLosslessTestCase);
        AddTestCase(new MulticastLossTestCase);
        AddTestCase(new MulticastLeafSpineTestCase);
        AddTestCase(new MulticastRoutesErrorTestCase);
    }
};

static MulticastTestSuite g_multicastTestSuite; //!< registers the suite
