/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topologies, checked against first principles: the single ToR's queue discs and devices; on
 * a topology of the user's own (two racks built with ns-3's helpers) both tenants through the
 * public API; flow-hash ECMP keeps a connection on one path and spreads connections over the
 * paths; a ring spread over an oversubscribed leaf-spine runs at the bottleneck's share, and
 * packed in one rack it equals the single-ToR figure; a fat tree carries a ring's exact bytes;
 * placement and its errors; the queue meter against the discs' own counts.
 */
#include "../model/ddnn-ring.h"
#include "../model/flow-hash-ecmp-routing.h"
#include "ddnn-test-util.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace ns3;
using namespace ns3::ddnntest;

namespace
{

const uint64_t kBufferBytes = 4000000;

/** The duration of the second of two 4 MB allreduces of a 4-worker ring on `servers`. */
Time
AllreduceTime(Ptr<ServerTopology> servers)
{
    TrainingHelper helper;
    helper.SetAttribute("ProfileFile",
                        StringValue(WriteProfile("fabric.csv", {kBufferBytes, kBufferBytes})));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(kBufferBytes));
    helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
    helper.SetAttribute("Iterations", UintegerValue(1));
    helper.Install(servers);
    Simulator::Run();
    std::vector<TrainingJob::Record> records = helper.GetJob()->GetRecords();
    Time t = records.size() == 2 && records[1].end_ns > 0
                 ? NanoSeconds(records[1].end_ns - records[1].start_ns)
                 : Seconds(-1);
    Simulator::Destroy();
    return t;
}

Ptr<LeafSpineHelper>
LeafSpine(uint32_t spines)
{
    Ptr<LeafSpineHelper> fabric = CreateObject<LeafSpineHelper>();
    fabric->SetAttribute("Leaves", UintegerValue(2));
    fabric->SetAttribute("ServersPerLeaf", UintegerValue(4));
    fabric->SetAttribute("Spines", UintegerValue(spines));
    fabric->Create();
    return fabric;
}

} // namespace

/**
 * \ingroup ddnn-tests
 * The single-ToR network: PfifoFast with the configured limit on every egress,
 * at the servers and at the switch, above one-packet device queues.
 */
class TopologyTestCase : public TestCase
{
  public:
    TopologyTestCase()
        : TestCase("PfifoFast of 1000 packets on every server and switch egress, 1-packet devices")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<SingleTorHelper> network = TunedSingleTor(5);
        // Queue discs create their internal queues when the simulation initializes them.
        Simulator::Stop(NanoSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(network->GetSwitch()->GetNDevices(), 5 + 1, "5 links and loopback");
        for (uint32_t i = 0; i < 5; ++i)
        {
            for (Ptr<QueueDisc> disc :
                 {network->GetServerQueueDisc(i), network->GetSwitchQueueDisc(i)})
            {
                NS_TEST_ASSERT_MSG_NE(DynamicCast<PfifoFastQueueDisc>(disc), nullptr, "PfifoFast");
                NS_TEST_ASSERT_MSG_EQ(disc->GetMaxSize(),
                                      QueueSize(QueueSizeUnit::PACKETS, 1000),
                                      "one limit for the three bands");
                NS_TEST_ASSERT_MSG_EQ(disc->GetNInternalQueues(), 3, "three bands, no more");
            }
            for (Ptr<NetDevice> device : {network->GetServerDevice(i), network->GetSwitchDevice(i)})
            {
                Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
                NS_TEST_ASSERT_MSG_EQ(p2p->GetQueue()->GetMaxSize(),
                                      QueueSize(QueueSizeUnit::PACKETS, 1),
                                      "device queue");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(network->GetServerAddress(3), Ipv4Address("10.1.4.1"), "addressing");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * The hosts' own queues (ServerBandLimitPackets, the thesis code's 100 packets per band): one
 * TCP flow whose bottleneck is its server's own link (the server's band fills) and one whose
 * bottleneck is the switch's egress (a rate-capped receiver: the switch's queue fills), with
 * the thesis's 32 MiB socket buffers, so that slow start outgrows both queues. With the limit
 * the server's band never holds more than 100 packets and its overflow is counted as the
 * queue disc's drops, while the switch's queue disc still fills past 100 towards its own
 * limit; without the limit the same server queues past 100.
 */
class HostBandLimitTestCase : public TestCase
{
  public:
    HostBandLimitTestCase()
        : TestCase("a server band holds at most ServerBandLimitPackets, the switch its own limit")
    {
    }

  private:
    struct Peaks
    {
        uint32_t serverBand{0};  //!< most packets in a band of the sending server's egress
        uint64_t serverDrops{0}; //!< the sending server's queue disc's drops
        uint32_t switchQueue{0}; //!< most packets in the switch's egress to the capped receiver
    };

    static void
    Peak(uint32_t* peak, uint32_t, uint32_t now)
    {
        *peak = std::max(*peak, now);
    }

    /** Server 2 sends to 3 (bottleneck: server 2's link), 1 to the capped 0 (the switch). */
    static Peaks
    Run(uint32_t serverBandLimit)
    {
        TransportSettings::Profile("thesis").Apply();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        network->SetAttribute("ImpairedServers", StringValue("0"));
        network->SetAttribute("RateCap", DataRateValue(DataRate("500Mbps")));
        network->SetAttribute("ServerBandLimitPackets", UintegerValue(serverBandLimit));
        network->Create(4);
        const std::pair<uint32_t, uint32_t> flows[] = {{2, 3}, {1, 0}};
        for (const auto& [from, to] : flows)
        {
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), 5000));
            sink.Install(network->GetServer(to));
            BulkSendHelper send("ns3::TcpSocketFactory",
                                InetSocketAddress(network->GetServerAddress(to), 5000));
            send.Install(network->GetServer(from));
        }
        Peaks peaks;
        Simulator::Stop(NanoSeconds(1)); // queue discs create their internal queues at start
        Simulator::Run();
        Ptr<QueueDisc> server = network->GetServerQueueDisc(2);
        for (Ptr<Object> band : EgressQueue::BandQueues(server))
        {
            band->TraceConnectWithoutContext("PacketsInQueue",
                                             MakeBoundCallback(&Peak, &peaks.serverBand));
        }
        network->GetSwitchQueueDisc(0)->TraceConnectWithoutContext(
            "PacketsInQueue", MakeBoundCallback(&Peak, &peaks.switchQueue));
        Simulator::Stop(MilliSeconds(15));
        Simulator::Run();
        peaks.serverDrops = server->GetStats().nTotalDroppedPackets;
        Simulator::Destroy();
        return peaks;
    }

    void
    DoRun() override
    {
        const Peaks limited = Run(100);
        NS_TEST_ASSERT_MSG_GT(limited.serverBand, 90, "the server's band filled");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(limited.serverBand, 100, "at most 100 packets in a band");
        NS_TEST_ASSERT_MSG_GT(limited.serverDrops, 0, "the band's overflow counted as drops");
        NS_TEST_ASSERT_MSG_GT(limited.switchQueue, 300, "the switch queues past the hosts' 100");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(limited.switchQueue, 1000, "the switch's own limit");
        const Peaks unlimited = Run(0);
        NS_TEST_ASSERT_MSG_GT(unlimited.serverBand, 100, "without the limit the server queues on");

        // A fabric's servers get it too, and its switches keep their one limit.
        Ptr<LeafSpineHelper> fabric = CreateObject<LeafSpineHelper>();
        fabric->SetAttribute("ServerBandLimitPackets", UintegerValue(100));
        fabric->Create();
        Simulator::Stop(NanoSeconds(1));
        Simulator::Run();
        for (uint32_t i = 0; i < fabric->GetServerCount(); ++i)
        {
            Ptr<NetDevice> device = fabric->GetServerDevice(i);
            Ptr<QueueDisc> disc
                = device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
                    device);
            NS_TEST_ASSERT_MSG_EQ(disc->GetQueueDiscClass(1)->GetQueueDisc()->GetMaxSize(),
                                  QueueSize(QueueSizeUnit::PACKETS, 100),
                                  "leaf-spine server " << i);
        }
        for (uint32_t i = 0; i < fabric->GetFabricQueueDiscs().GetN(); ++i)
        {
            Ptr<QueueDisc> disc = fabric->GetFabricQueueDiscs().Get(i);
            NS_TEST_ASSERT_MSG_EQ(disc->GetInternalQueue(1)->GetMaxSize(),
                                  QueueSize(QueueSizeUnit::PACKETS, 1000),
                                  "leaf-spine switch egress " << i);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * The queue meter from first principles: one 1 MB TCP flow (no ToS: PfifoFast's band 1)
 * from a server whose band holds 20 packets, with the thesis's 32 MiB socket buffers, so
 * that slow start overflows it. Every packet a disc drops is counted once, in its band and
 * on its side (the discs' own statistics); as the receiver ends with every byte, each
 * dropped segment was sent again (retransmissions at least the drops); the band's backlog
 * reached its 20 packets and no more; the other bands neither drop nor resend. With room
 * for the whole flow in the queues nothing is dropped or sent again.
 */
class QueueMeterTestCase : public TestCase
{
  public:
    QueueMeterTestCase()
        : TestCase("the queue meter counts each drop once, and every lost segment is resent")
    {
    }

  private:
    void
    Check(uint32_t serverBandLimit)
    {
        const uint64_t flowBytes = 1000000;
        TransportSettings::Profile("thesis").Apply();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        network->SetAttribute("ServerBandLimitPackets", UintegerValue(serverBandLimit));
        network->Create(3);
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 5000));
        Ptr<PacketSink> sink
            = DynamicCast<PacketSink>(sinkHelper.Install(network->GetServer(2)).Get(0));
        BulkSendHelper send("ns3::TcpSocketFactory",
                            InetSocketAddress(network->GetServerAddress(2), 5000));
        send.SetAttribute("MaxBytes", UintegerValue(flowBytes));
        send.Install(network->GetServer(1));
        QueueMeter meter(network, Seconds(0), Seconds(10));
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const std::string variant = "band limit " + std::to_string(serverBandLimit) + ": ";
        NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), flowBytes, variant << "every byte arrived");
        uint64_t serverDrops = 0;
        uint64_t switchDrops = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            serverDrops += network->GetServerQueueDisc(i)->GetStats().nTotalDroppedPackets;
            switchDrops += network->GetSwitchQueueDisc(i)->GetStats().nTotalDroppedPackets;
        }
        NS_TEST_ASSERT_MSG_EQ(meter.GetBands(QueueMeter::SERVERS), 3, variant << "three bands");
        NS_TEST_ASSERT_MSG_EQ(meter.IsClassified(QueueMeter::SWITCHES), true, variant << "mapped");
        NS_TEST_ASSERT_MSG_EQ(meter.GetDrops(QueueMeter::SERVERS, 1),
                              serverDrops,
                              variant << "the servers' drops, each once");
        NS_TEST_ASSERT_MSG_EQ(meter.GetDrops(QueueMeter::SWITCHES, 1),
                              switchDrops,
                              variant << "the switch's drops, each once");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(meter.GetRetransmissions(1),
                                    serverDrops + switchDrops,
                                    variant << "each lost segment sent again");
        for (uint32_t band : {0, 2})
        {
            NS_TEST_ASSERT_MSG_EQ(meter.GetDrops(QueueMeter::SERVERS, band)
                                      + meter.GetDrops(QueueMeter::SWITCHES, band)
                                      + meter.GetRetransmissions(band),
                                  0,
                                  variant << "nothing in band " << band);
        }
        // The discs hold IPv4 packets of full segments: the wire's bytes less PPP's 2.
        const uint64_t packetBytes = TransportSettings::Profile("thesis").WirePacketBytes() - 2;
        if (serverBandLimit > 0)
        {
            NS_TEST_ASSERT_MSG_GT(serverDrops, 0, variant << "slow start overflowed the band");
            NS_TEST_ASSERT_MSG_EQ(meter.GetMaxBacklogBytes(QueueMeter::SERVERS, 1),
                                  serverBandLimit * packetBytes,
                                  variant << "the band filled to its limit and no further");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(serverDrops + switchDrops + meter.GetRetransmissions(1),
                                  0,
                                  variant << "nothing lost, nothing resent");
        }
        Simulator::Destroy();
    }

    void
    DoRun() override
    {
        Check(20);
        Check(0);
    }
};

/**
 * \ingroup ddnn-tests
 * Both tenants on a topology of the user's own, through the public API only: two racks of
 * two servers built with ns-3's helpers, their servers given to the tenants as a
 * ServerList. The ring still moves 2S - size((r+1)%N) - size((r+2)%N) bytes per worker per
 * buffer, every background flow completes, and the meter sees both tenants.
 */
class OwnTopologyTestCase : public TestCase
{
  public:
    OwnTopologyTestCase()
        : TestCase("a topology of the user's own: two racks, ring bytes per worker, flows")
    {
    }

  private:
    void
    DoRun() override
    {
        Dumbbell racks("10Gbps"); // built with ns-3's helpers; TCP set up explicitly there
        Ptr<ServerList> topology = CreateObject<ServerList>(racks.servers);

        TrainingHelper training;
        training.SetAttribute("ProfileFile", StringValue(ddnntest::ScaledThesisProfile(100)));
        training.SetAttribute("FusionBufferBytes", UintegerValue(53334));
        training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(2)));
        training.SetAttribute("Iterations", UintegerValue(1));
        training.Install(topology);
        Ptr<TrainingJob> job = training.GetJob();

        std::string cdf = ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n");
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetPatternAttribute("CdfFile", StringValue(cdf));
        background->SetPatternAttribute("FlowRate", DoubleValue(200));
        background->SetAttribute("Stop", TimeValue(MilliSeconds(20)));
        Ptr<BackgroundTenant> tenant = background->Install(topology);
        UtilizationMeter meter(topology, MilliSeconds(1), Seconds(0), MilliSeconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "the job finished");
        for (uint32_t r = 0; r < 4; ++r)
        {
            uint64_t expected = 0;
            for (uint32_t b = 0; b < job->GetModel()->GetBufferCount(); ++b)
            {
                expected += ddnn_ring_bytes_sent_by(job->GetModel()->GetBuffer(b).bytes, 4, r);
            }
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0), expected, "worker " << r);
        }
        uint64_t completed = 0;
        for (const auto& flow : tenant->GetFlows())
        {
            completed += flow.Completed();
        }
        NS_TEST_ASSERT_MSG_GT(tenant->GetFlows().size(), 5, "flows generated");
        NS_TEST_ASSERT_MSG_EQ(completed, tenant->GetFlows().size(), "every flow completed");
        NS_TEST_ASSERT_MSG_GT(meter.GetUplinkUtilization(TenantKind::TRAINING), 0, "training seen");
        NS_TEST_ASSERT_MSG_GT(
            meter.GetDownlinkUtilization(TenantKind::BACKGROUND), 0, "background seen");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Flow-hash ECMP at a leaf with two spines: the same 5-tuple always takes the same next hop,
 * and 256 connections split between both spines, each taking at least a third.
 */
class EcmpFlowHashTestCase : public TestCase
{
  public:
    EcmpFlowHashTestCase()
        : TestCase("ECMP: one path per connection, connections spread over the spines")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<LeafSpineHelper> fabric = LeafSpine(2);
        Ptr<Ipv4> leaf = fabric->GetLeaf(0)->GetObject<Ipv4>();
        Ptr<FlowHashEcmpRouting> routing
            = DynamicCast<FlowHashEcmpRouting>(leaf->GetRoutingProtocol());
        NS_TEST_ASSERT_MSG_EQ(routing->GetNextHops(fabric->GetServerAddress(5)).size(),
                              2,
                              "two equal-cost paths to the other rack");
        NS_TEST_ASSERT_MSG_EQ(routing->GetNextHops(fabric->GetServerAddress(1)).size(),
                              1,
                              "one path inside the rack");
        std::map<uint32_t, uint32_t> perInterface;
        for (uint16_t port = 49152; port < 49152 + 256; ++port)
        {
            Ipv4Header ip;
            ip.SetSource(fabric->GetServerAddress(0));
            ip.SetDestination(fabric->GetServerAddress(5));
            ip.SetProtocol(6);
            TcpHeader tcp;
            tcp.SetSourcePort(port);
            tcp.SetDestinationPort(50000);
            Ptr<Packet> p = Create<Packet>(100);
            p->AddHeader(tcp);
            Socket::SocketErrno error;
            Ptr<Ipv4Route> first = routing->RouteOutput(p, ip, nullptr, error);
            Ptr<Ipv4Route> again = routing->RouteOutput(p, ip, nullptr, error);
            NS_TEST_ASSERT_MSG_EQ(
                first->GetOutputDevice(), again->GetOutputDevice(), "same connection, same path");
            ++perInterface[first->GetOutputDevice()->GetIfIndex()];
        }
        NS_TEST_ASSERT_MSG_EQ(perInterface.size(), 2, "both spines used");
        for (const auto& [device, count] : perInterface)
        {
            NS_TEST_ASSERT_MSG_GT(count, 256 / 3, "device " << device << " takes its share");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Leaf-spine of 2 racks of 4 servers and one spine at the servers' rate: 4:1
 * oversubscribed. A 4-worker ring spread over both racks crosses the spine at every hop, two
 * connections share each leaf uplink, so each moves at half the rate: the allreduce takes at
 * least 2(N-1)/N x S at half the rate, and within 15 % of the ideal transport at that share.
 * Packed in one rack the same ring takes what it takes on a single ToR, within 1 %.
 */
class OversubscribedLeafSpineTestCase : public TestCase
{
  public:
    OversubscribedLeafSpineTestCase()
        : TestCase("leaf-spine 4:1: spread ring at the bottleneck's share, packed = single ToR")
    {
    }

  private:
    void
    DoRun() override
    {
        const TransportSettings transport = ddnntest::ApplyTunedTransport();
        const double rate = 10e9;
        const double share = rate / 2;
        const uint32_t n = 4;
        const double bytes = 2.0 * (n - 1) / n * kBufferBytes;

        Ptr<LeafSpineHelper> spreadFabric = LeafSpine(1);
        const Time spread = AllreduceTime(PlaceJob(spreadFabric, "spread", n));
        // Ideal at the share: payload at the goodput fraction of half the rate, plus each
        // step's latency over 4 links (4 delays, 3 store-and-forwards of a full packet).
        const double ideal
            = bytes * 8 / (share * transport.GoodputFraction())
              + 2 * (n - 1) * (4 * 10e-6 + 3 * transport.WirePacketBytes() * 8 / rate);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(spread.GetSeconds(), bytes * 8 / share, "at most the share");
        NS_TEST_ASSERT_MSG_EQ_TOL(spread.GetSeconds(),
                                  ideal,
                                  ideal * 0.15,
                                  "spread: " << spread.As(Time::MS) << ", ideal at the share "
                                             << ideal * 1e3 << " ms");

        Ptr<LeafSpineHelper> packedFabric = LeafSpine(1);
        const Time packed = AllreduceTime(PlaceJob(packedFabric, "packed", n));
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n);
        const Time single = AllreduceTime(tor);
        NS_TEST_ASSERT_MSG_EQ_TOL(packed.GetSeconds(),
                                  single.GetSeconds(),
                                  single.GetSeconds() * 0.01,
                                  "packed " << packed.As(Time::MS) << " vs single ToR "
                                            << single.As(Time::MS));
    }
};

/**
 * \ingroup ddnn-tests
 * A 4-ary fat tree (16 servers, 4 pods): an edge switch has k/2 equal-cost paths to another
 * pod, and an 8-worker ring spread over every rack delivers its exact ring bytes.
 */
class FatTreeTestCase : public TestCase
{
  public:
    FatTreeTestCase()
        : TestCase("fat tree k=4: two paths between pods, a spread ring's exact bytes")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<FatTreeHelper> fabric = CreateObject<FatTreeHelper>();
        fabric->SetAttribute("K", UintegerValue(4));
        fabric->Create();
        NS_TEST_ASSERT_MSG_EQ(fabric->GetServerCount(), 16, "k^3/4 servers");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetRackOf(15), 7, "k/2 servers per edge switch");
        Ptr<FlowHashEcmpRouting> edge
            = DynamicCast<FlowHashEcmpRouting>(fabric->GetServer(0)
                                                   ->GetDevice(1)
                                                   ->GetChannel()
                                                   ->GetDevice(1)
                                                   ->GetNode()
                                                   ->GetObject<Ipv4>()
                                                   ->GetRoutingProtocol());
        NS_TEST_ASSERT_MSG_EQ(edge->GetNextHops(fabric->GetServerAddress(15)).size(),
                              2,
                              "k/2 paths from an edge switch to another pod");
        TrainingHelper helper;
        helper.SetAttribute("ProfileFile", StringValue(WriteProfile("fat.csv", {240000, 240001})));
        helper.SetAttribute("FusionBufferBytes", UintegerValue(240001));
        helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
        helper.SetAttribute("Iterations", UintegerValue(1));
        helper.Install(PlaceJob(fabric, "spread", 8));
        Simulator::Run();
        Ptr<TrainingJob> job = helper.GetJob();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        for (uint32_t r = 0; r < 8; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0),
                                  job->GetExpectedBytesSent(r, 240000)
                                      + job->GetExpectedBytesSent(r, 240001),
                                  "worker " << r);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Placement: packed fills racks in order, spread goes round the racks, a list is taken as
 * written; a server that does not exist, one given twice, or too many workers are refused.
 */
class PlacementTestCase : public TestCase
{
  public:
    PlacementTestCase()
        : TestCase("placement: packed, spread, explicit, and bad placements")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<LeafSpineHelper> fabric = LeafSpine(1);
        Ptr<ServerList> spread = PlaceJob(fabric, "spread", 4);
        Ptr<ServerList> packed = PlaceJob(fabric, "packed", 4);
        Ptr<ServerList> listed = PlaceJob(fabric, "7,0", 2);
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(
                spread->GetServer(r), fabric->GetServer(r % 2 * 4 + r / 2), "spread rank " << r);
            NS_TEST_ASSERT_MSG_EQ(packed->GetServer(r), fabric->GetServer(r), "packed rank " << r);
        }
        NS_TEST_ASSERT_MSG_EQ(listed->GetServer(0), fabric->GetServer(7), "listed rank 0");
        auto contains = [](const std::string& text, const std::string& part) {
            return text.find(part) != std::string::npos;
        };
        std::string missing = ErrorOf([&] { PlaceJob(fabric, "0,8", 2); });
        NS_TEST_ASSERT_MSG_EQ(
            contains(missing, "server 8 does not exist (the topology has 8)"), true, missing);
        std::string twice = ErrorOf([&] { PlaceJob(fabric, "3,3", 2); });
        NS_TEST_ASSERT_MSG_EQ(contains(twice, "server 3 appears twice"), true, twice);
        std::string many = ErrorOf([&] { PlaceJob(fabric, "packed", 9); });
        NS_TEST_ASSERT_MSG_EQ(contains(many, "9 workers do not fit 8 servers"), true, many);
        std::string odd = ErrorOf([] {
            Ptr<FatTreeHelper> tree = CreateObject<FatTreeHelper>();
            tree->SetAttribute("K", UintegerValue(3));
            tree->Create();
        });
        NS_TEST_ASSERT_MSG_EQ(contains(odd, "expected an even radix, got 3"), true, odd);
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the topologies.
 */
class FabricTestSuite : public TestSuite
{
  public:
    FabricTestSuite()
        : TestSuite("ddnn-fabric", Type::SYSTEM)
    {
        AddTestCase(new TopologyTestCase);
        AddTestCase(new HostBandLimitTestCase);
        AddTestCase(new QueueMeterTestCase);
        AddTestCase(new OwnTopologyTestCase);
        AddTestCase(new EcmpFlowHashTestCase);
        AddTestCase(new OversubscribedLeafSpineTestCase);
        AddTestCase(new FatTreeTestCase);
        AddTestCase(new PlacementTestCase);
    }
};

static FabricTestSuite g_fabricTestSuite; //!< registers the suite
