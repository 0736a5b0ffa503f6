/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the multi-switch fabrics, checked against first principles: flow-hash ECMP
 * keeps a connection on one path and spreads connections over the paths; a ring spread over
 * an oversubscribed leaf-spine runs at the bottleneck's share; packed in one rack it equals
 * the single-ToR figure; a fat tree carries a ring's exact bytes; placement errors. Also
 * dedicated parameter-server hosts (a layout of hosts beside the workers): bytes on the
 * server's link and the time they take, shards, and bad layouts.
 */
#include "../model/ddnn-ring.h"
#include "../model/flow-hash-ecmp-routing.h"
#include "ddnn-test-util.h"

#include "../examples/runner/runner.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ddnn-module.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

using namespace ns3;

namespace
{

using ddnntest::ErrorOf;
using ddnntest::WriteProfile;

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
 * A whole datacenter run on a fabric from the scenario (--topology=fat-tree): 4 workers spread
 * over a 16-server fat tree next to background flows between all 16 servers. Every worker
 * receives its left neighbour's ring bytes, flows are generated for every server, and the
 * servers without a worker carry no training.
 */
class ScenarioOnFabricTestCase : public TestCase
{
  public:
    ScenarioOnFabricTestCase()
        : TestCase("scenario on a fat tree: spread job, background on every server")
    {
    }

  private:
    void
    DoRun() override
    {
        DatacenterScenario s;
        s.topologyKind = "fat-tree";
        s.fatTreeK = 4;
        s.workers = 4;
        s.placement = "spread";
        s.profile = WriteProfile("scenario-fabric.csv", {240000, 240001});
        s.fusionBytes = 240001;
        s.computeMs = 1;
        s.iterations = 2;
        s.flowRate = 100;
        s.durationS = 0.05;
        s.warmupS = 0;
        s.cooldownS = 0.01;
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
        uint32_t highest = 0;
        for (const ddnn_flow& f : flows)
        {
            highest = std::max({highest, f.src, f.dst});
        }
        NS_TEST_ASSERT_MSG_EQ(highest, 15, "flows between all 16 servers");
        DatacenterResult r = RunDatacenter(s, "same", flows, "");
        NS_TEST_ASSERT_MSG_EQ(r.jobs[0].training.iterationsCompleted, 2, "iterations");
        NS_TEST_ASSERT_MSG_EQ(r.jobs[0].trainingBytesReceived.size(), 4, "four workers");
        for (uint32_t w = 0; w < 4; ++w)
        {
            // Ranks 0..3 sit in racks 0..3; a worker receives what its left neighbour sends.
            uint64_t expected = 0;
            for (uint64_t buffer : {240000, 240001})
            {
                expected += 2 * ddnn_ring_bytes_sent_by(buffer, 4, (w + 3) % 4);
            }
            NS_TEST_ASSERT_MSG_EQ(r.jobs[0].trainingBytesReceived[w], expected, "worker " << w);
        }
        NS_TEST_ASSERT_MSG_EQ(r.linkUtilization.size(), 16, "every server measured");
        NS_TEST_ASSERT_MSG_EQ(r.linkUtilization[1][0], 0.0, "server 1 holds no worker");
        NS_TEST_ASSERT_MSG_GT(r.linkUtilization[2][0], 0.0, "server 2 (rank 1) trains");
        NS_TEST_ASSERT_MSG_GT(r.fct[DDNN_FLOWS_ALL].completed, 0, "background flows complete");
        // Per tier: a spread ring crosses pods, so training climbs to the cores; every tier
        // carries background flows.
        NS_TEST_ASSERT_MSG_EQ(r.tierUtilization.size(), 4, "two tiers, up and down");
        for (const auto& [tier, utilization] : r.tierUtilization)
        {
            NS_TEST_ASSERT_MSG_GT(utilization[0], 0.0, tier << " carries training");
            NS_TEST_ASSERT_MSG_GT(utilization[1], 0.0, tier << " carries background");
            NS_TEST_ASSERT_MSG_LT(utilization[0] + utilization[1], 1.0, tier << " below its rate");
        }
        NS_TEST_ASSERT_MSG_EQ(r.tierUtilization[0].first, "edge_aggregation_up", "first tier");
    }
};

/**
 * \ingroup ddnn-tests
 * One dedicated parameter server (P = 1) for N = 4 workers on a single ToR at 10 Gbit/s, two
 * buffers of S = 1 MB per iteration. Per buffer each worker pushes S and pulls S (2 x model per
 * iteration through its link); the server receives N x S and sends N x S, and its link carries
 * that each way: at least the payload, at most 10 % more (52 header bytes per 1448-byte
 * segment, one 52-byte ACK per segment at most, a short segment per 64 KiB write: 3.6 + 3.6 +
 * 2.2 %). A buffer's collective takes at least N x S x 8 / rate into the server, then as much
 * out (the update leaves only once every push has arrived), and within 5 % of that at TCP's
 * goodput plus the push's and pull's path latencies. The server computes nothing.
 */
class DedicatedParameterServerTestCase : public TestCase
{
  public:
    DedicatedParameterServerTestCase()
        : TestCase("dedicated parameter server P=1: N x S each way on its link, 2 N S at the rate")
    {
    }

  private:
    void
    DoRun() override
    {
        const TransportSettings transport = ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint64_t s = 1000000;
        const double rate = 10e9;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n + 1);
        NodeContainer workers;
        for (uint32_t i = 0; i < n; ++i)
        {
            workers.Add(tor->GetServer(i));
        }
        TrainingHelper helper;
        helper.SetAttribute("ProfileFile", StringValue(WriteProfile("dedicated.csv", {s, s})));
        helper.SetAttribute("FusionBufferBytes", UintegerValue(s));
        helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
        helper.SetAttribute("Iterations", UintegerValue(1));
        helper.SetAttribute("Collective", StringValue("parameter-server"));
        helper.SetAttribute("ParameterServerHosts", EnumValue(TrainingJob::DEDICATED));
        ApplicationContainer apps = helper.Install(workers, NodeContainer(tor->GetServer(n)));
        NS_TEST_ASSERT_MSG_EQ(apps.GetN(), n + 1, "N workers and one server");
        Ptr<TrainingJob> job = helper.GetJob();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        const uint64_t model = 2 * s;
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(0), model, "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesReceived(), model, "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(
                job->GetExpectedBytesSent(r, s), s, "worker " << r << " pushes the buffer");
        }
        Ptr<TrainingWorker> server = job->GetParameterServer(0);
        NS_TEST_ASSERT_MSG_EQ(server->GetRank(), n, "the server is rank N");
        NS_TEST_ASSERT_MSG_EQ(server->IsDedicatedServer(), true, "dedicated");
        NS_TEST_ASSERT_MSG_EQ(server->GetIterationsCompleted(), 0, "the server computes nothing");
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(0), n * model, "N x model out of the server");
        NS_TEST_ASSERT_MSG_EQ(server->GetBytesReceived(), n * model, "N x model into it");
        const double payload = n * model;
        const double up = tor->GetServerQueueDisc(n)->GetStats().nTotalSentBytes;
        const double down = tor->GetSwitchQueueDisc(n)->GetStats().nTotalSentBytes;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(up, payload, "the server's uplink carries N x model");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(up, payload * 1.1, "and its headers and ACKs only");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(down, payload, "its downlink carries N x model");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(down, payload * 1.1, "and its headers and ACKs only");
        std::vector<TrainingJob::Record> records = job->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2, "two buffers");
        const double bound = 2.0 * n * s * 8 / rate;
        // Path latency: 2 links' delays and one store-and-forward of a full packet at the
        // switch (as IdealStepLatency), once for the last push and once for the last pull.
        const double latency = 2 * 10e-6 + transport.WirePacketBytes() * 8 / rate;
        const double ideal = bound / transport.GoodputFraction() + 2 * latency;
        for (const TrainingJob::Record& record : records)
        {
            const double t = (record.end_ns - record.start_ns) * 1e-9;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(t, bound, "buffer " << record.buffer << ": 2 N S / rate");
            NS_TEST_ASSERT_MSG_EQ_TOL(t,
                                      ideal,
                                      ideal * 0.05,
                                      "buffer " << record.buffer << ": " << t * 1e3 << " ms, ideal "
                                                << ideal * 1e3 << " ms");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * P = 3 dedicated servers for N = 4 workers, buffers of 240001 bytes: shards of 80001, 80000
 * and 80000 bytes. Server k receives and sends exactly N x shard(k) per buffer, the shards the
 * servers hold add up to the buffer exactly, and every worker pushes and pulls the whole
 * buffer, over TCP and over the ideal transport.
 */
class DedicatedShardsTestCase : public TestCase
{
  public:
    DedicatedShardsTestCase(const std::string& transport)
        : TestCase("dedicated parameter servers P=3: shards sum to the model exactly, " + transport)
        , m_transport(transport)
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        const uint32_t n = 4;
        const uint32_t p = 3;
        const uint64_t s = 240001;
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(n + p);
        NodeContainer workers;
        NodeContainer servers;
        for (uint32_t i = 0; i < n + p; ++i)
        {
            (i < p ? servers : workers).Add(tor->GetServer(i)); // servers first: any nodes do
        }
        TrainingHelper helper;
        helper.SetAttribute("ProfileFile", StringValue(WriteProfile("shards.csv", {s, s})));
        helper.SetAttribute("FusionBufferBytes", UintegerValue(s));
        helper.SetAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
        helper.SetAttribute("Iterations", UintegerValue(2));
        helper.SetAttribute("Collective", StringValue("parameter-server"));
        helper.SetAttribute("ParameterServers", UintegerValue(p));
        helper.SetAttribute("ParameterServerHosts", StringValue("Dedicated"));
        if (m_transport == "ideal")
        {
            helper.SetTransport("ns3::IdealPartitionTransport");
        }
        helper.Install(workers, servers);
        Ptr<TrainingJob> job = helper.GetJob();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "job finished");
        NS_TEST_ASSERT_MSG_EQ(job->GetRankCount(), n + p, "N + P ranks");
        const uint64_t shards[] = {80001, 80000, 80000};
        uint64_t held = 0;
        for (uint32_t k = 0; k < p; ++k)
        {
            Ptr<TrainingWorker> server = job->GetParameterServer(k);
            for (uint32_t it = 0; it < 2; ++it)
            {
                NS_TEST_ASSERT_MSG_EQ(server->GetBytesSent(it),
                                      2 * n * shards[k],
                                      "server " << k << ", iteration " << it);
            }
            NS_TEST_ASSERT_MSG_EQ(
                server->GetBytesReceived(), 2 * 2 * n * shards[k], "server " << k << " received");
            held += server->GetBytesReceived() / (2 * 2 * n);
        }
        NS_TEST_ASSERT_MSG_EQ(held, s, "the shards add up to the buffer exactly");
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t it = 0; it < 2; ++it)
            {
                NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetBytesSent(it),
                                      2 * s,
                                      "worker " << r << " pushes, iteration " << it);
            }
            NS_TEST_ASSERT_MSG_EQ(
                job->GetWorker(r)->GetBytesReceived(), 2 * 2 * s, "worker " << r << " pulls");
            NS_TEST_ASSERT_MSG_EQ(job->GetWorker(r)->GetIterationsCompleted(), 2, "iterations");
        }
        Simulator::Destroy();
    }

    std::string m_transport;
};

/**
 * \ingroup ddnn-tests
 * Bad parameter-server layouts, each refused with one line naming what is wrong: P = 0, fewer
 * (or more) server nodes than P, a server node that is also a worker or given twice, server
 * nodes with co-located servers, dedicated servers without the parameter-server collective.
 */
class DedicatedLayoutErrorsTestCase : public TestCase
{
  public:
    DedicatedLayoutErrorsTestCase()
        : TestCase("dedicated parameter servers: bad layouts are refused")
    {
    }

  private:
    void
    DoRun() override
    {
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->Create(5);
        NodeContainer workers(tor->GetServer(0), tor->GetServer(1), tor->GetServer(2));
        const std::string profile = WriteProfile("layout.csv", {1000, 1000});
        auto helperWith = [&](const std::string& collective, uint32_t servers, bool dedicated) {
            TrainingHelper helper;
            helper.SetAttribute("ProfileFile", StringValue(profile));
            helper.SetAttribute("Collective", StringValue(collective));
            helper.SetAttribute("ParameterServers", UintegerValue(servers));
            helper.SetAttribute("ParameterServerHosts",
                                StringValue(dedicated ? "Dedicated" : "CoLocated"));
            return helper;
        };
        // ErrorOf would destroy the simulator, and the network with it, after the first.
        auto errorOf = [](const std::function<void()>& action) {
            try
            {
                action();
            }
            catch (const DdnnError& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        auto check = [&](const std::string& error, const std::string& expected) {
            NS_TEST_ASSERT_MSG_EQ(error, expected, "the one line");
            NS_TEST_ASSERT_MSG_EQ(error.find('\n'), std::string::npos, "one line");
        };
        check(errorOf([&] { helperWith("parameter-server", 0, true); }),
              "ns3::TrainingJob::ParameterServers: invalid value '0', expected uint32_t "
              "1:4294967295");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServers: expected 2 dedicated parameter-server nodes "
              "(ParameterServerHosts Dedicated), got 1");
        check(errorOf([&] { helperWith("parameter-server", 1, true).Install(workers); }),
              "ns3::TrainingJob::ParameterServers: expected 1 dedicated parameter-server nodes "
              "(ParameterServerHosts Dedicated), got 0");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(3), tor->GetServer(1)));
              }),
              "ns3::TrainingHelper: node " + std::to_string(tor->GetServer(1)->GetId())
                  + " is both worker 1 and dedicated parameter server 1, expected a node of its "
                    "own for each dedicated server");
        check(errorOf([&] {
                  helperWith("parameter-server", 2, true)
                      .Install(workers, NodeContainer(tor->GetServer(4), tor->GetServer(4)));
              }),
              "ns3::TrainingHelper: node " + std::to_string(tor->GetServer(4)->GetId())
                  + " is dedicated parameter server 0 and 1, expected a node of its own for each "
                    "dedicated server");
        check(errorOf([&] {
                  helperWith("parameter-server", 1, false)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServerHosts: 1 parameter-server nodes given, expected "
              "none with CoLocated (the servers run on workers 0..P-1); set Dedicated to use "
              "them");
        check(errorOf([&] {
                  helperWith("ring-allreduce", 1, true)
                      .Install(workers, NodeContainer(tor->GetServer(3)));
              }),
              "ns3::TrainingJob::ParameterServerHosts: Dedicated, expected Collective "
              "parameter-server, got 'ring-allreduce'");
        check(errorOf([&] { helperWith("parameter-server", 4, false).Install(workers); }),
              "ns3::TrainingJob::ParameterServers: expected at most the 3 workers, got 4");
        NS_TEST_ASSERT_MSG_EQ(
            tor->GetServer(3)->GetNApplications(), 0, "nothing installed by a refused layout");
        Simulator::Destroy();
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
        ddnntest::ApplyTunedTransport();
        const std::string congestion = dctcp ? "ns3::TcpDctcp" : "ns3::TcpNewReno";
        Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
        tor->SetAttribute("QueueDisc",
                          EnumValue(dctcp ? EgressQueue::PRIO_RED : EgressQueue::PFIFO_FAST));
        tor->SetAttribute("EcnThresholdPackets", UintegerValue(k));
        tor->SetAttribute("ImpairedServers", StringValue("2"));
        tor->SetAttribute("RateCap", DataRateValue(DataRate("1Gbps")));
        tor->Create(3);

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
 * The fabrics' tests.
 */
class FabricTestSuite : public TestSuite
{
  public:
    FabricTestSuite()
        : TestSuite("ddnn-fabric", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new EcmpFlowHashTestCase);
        AddTestCase(new OversubscribedLeafSpineTestCase);
        AddTestCase(new FatTreeTestCase);
        AddTestCase(new PlacementTestCase);
        AddTestCase(new ScenarioOnFabricTestCase);
        AddTestCase(new DedicatedParameterServerTestCase);
        AddTestCase(new DedicatedShardsTestCase("tcp"));
        AddTestCase(new DedicatedShardsTestCase("ideal"));
        AddTestCase(new DedicatedLayoutErrorsTestCase);
        AddTestCase(new DctcpSmallFlowFctTestCase);
    }
};

static FabricTestSuite g_fabricTestSuite; //!< Static variable for test initialization
