/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the background tenant and of the two tenants together:
 * priorities at the switch, offered loads against eq. 5.2 and 5.3, flow
 * bookkeeping (unfinished flows, hundreds of concurrent flows, identical
 * schedules across runs) and bad input.
 */
#include "../model/ddnn-ring.h"
#include "../model/ns3-compat.h"
#include "ddnn-test-util.h"

#include "../examples/runner/runner.h"

#include "ns3/applications-module.h"
#include "ns3/boolean.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <map>

using namespace ns3;

namespace
{

using ddnntest::ErrorOf;

bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

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
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->Create(3);
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
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->Create(5);
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
 * Background alone: the measured uplink load matches rate x mean size
 * (eq. 5.3) within 10 % once headers are accounted for; every flow completes
 * and no connection is left open.
 */
class BackgroundLoadTestCase : public TestCase
{
  public:
    BackgroundLoadTestCase()
        : TestCase("background load = rate x mean size within 10 %, nothing lost or leaked")
    {
    }

  private:
    void
    DoRun() override
    {
        // uniform sizes up to 100 kB: mean 50 kB, low variance, few packets
        std::string cdf = ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n");
        ddnntest::ApplyTunedTransport();
        Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
        network->Create(4);
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetAttribute("CdfFile", StringValue(cdf));
        helper->SetAttribute("FlowRate", DoubleValue(1000));
        helper->SetAttribute("Stop", TimeValue(MilliSeconds(300)));
        helper->SetAttribute("MeasureFrom", TimeValue(MilliSeconds(50)));
        helper->SetAttribute("MeasureUntil", TimeValue(MilliSeconds(250)));
        Ptr<BackgroundTenant> tenant = helper->Install(network->GetServers());
        UtilizationMeter meter(network, MilliSeconds(10), MilliSeconds(50), MilliSeconds(250));
        Simulator::Run(); // until every flow has finished
        const double expected = 1000 * 50000.0 * 8 / 10e9;
        const double measured = meter.GetUplinkUtilization(TenantKind::BACKGROUND)
                                * TransportSettings().GoodputFraction();
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, expected * 0.10, "uplink load");
        NS_TEST_ASSERT_MSG_EQ_TOL(meter.GetDownlinkUtilization(TenantKind::BACKGROUND)
                                      * TransportSettings().GoodputFraction(),
                                  expected,
                                  expected * 0.10,
                                  "downlink load");
        NS_TEST_ASSERT_MSG_EQ(meter.GetUplinkUtilization(TenantKind::TRAINING), 0, "no training");
        uint64_t completed = 0;
        for (const auto& flow : tenant->GetFlows())
        {
            completed += flow.Completed();
        }
        NS_TEST_ASSERT_MSG_GT(tenant->GetFlows().size(), 1000, "flows generated");
        NS_TEST_ASSERT_MSG_EQ(completed, tenant->GetFlows().size(), "every flow completed");
        for (uint32_t i = 0; i < 4; ++i)
        {
            Ptr<Node> node = network->GetServer(i);
            for (uint32_t a = 0; a < node->GetNApplications(); ++a)
            {
                if (auto sink = DynamicCast<BackgroundFlowSink>(node->GetApplication(a)))
                {
                    NS_TEST_ASSERT_MSG_EQ(sink->GetOpenConnections(), 0, "sink " << i);
                }
                if (auto sender = DynamicCast<BackgroundFlowSender>(node->GetApplication(a)))
                {
                    NS_TEST_ASSERT_MSG_EQ(sender->GetOpenFlows(), 0, "sender " << i);
                }
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * The transport profile decides the bands: under "thesis", with training at low priority,
 * the switch and host queue discs see background data in band 0, background ACKs in band 1
 * (its sinks ACK at ToS 0), training data and ACKs in band 2, and NewReno on every node;
 * under "tuned" the background ACKs ride band 0 with their data and band 1 stays empty.
 */
class TransportProfileBandsTestCase : public TestCase
{
  public:
    TransportProfileBandsTestCase()
        : TestCase("transport profiles: thesis puts background ACKs in band 1, NewReno")
    {
    }

  private:
    /** Packets enqueued per band, split into data (> 100 bytes) and pure ACKs. */
    struct Counts
    {
        uint64_t data[3]{};
        uint64_t acks[3]{};
    };

    static void
    Enqueued(Counts* counts, uint32_t band, Ptr<const QueueDiscItem> item)
    {
        (item->GetPacket()->GetSize() > 100 ? counts->data : counts->acks)[band]++;
    }

    static void
    ConnectBands(Ptr<SingleTorHelper> network, uint32_t servers, Counts* counts)
    {
        for (uint32_t i = 0; i < servers; ++i)
        {
            for (Ptr<QueueDisc> disc :
                 {network->GetServerQueueDisc(i), network->GetSwitchQueueDisc(i)})
            {
                for (uint32_t band = 0; band < 3; ++band)
                {
                    disc->GetInternalQueue(band)->TraceConnectWithoutContext(
                        "Enqueue", MakeBoundCallback(&Enqueued, counts, band));
                }
            }
        }
    }

    static Counts
    Run(const std::string& profile, std::string& congestion)
    {
        TrainingScenario s;
        s.workers = 3;
        s.profile = ddnntest::ScaledThesisProfile(100);
        s.fusionBytes = 53334;
        s.computeMs = 5;
        s.iterations = 2;
        s.tos = 0x08; // training at low priority: band 2
        s.transportSettings = TransportSettings::Profile(profile);
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstallTraining(s, network);
        std::string cdf = ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n");
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetAttribute("CdfFile", StringValue(cdf));
        helper->SetAttribute("FlowRate", DoubleValue(300));
        helper->SetAttribute("Stop", TimeValue(MilliSeconds(20)));
        helper->SetAttribute("Tos", UintegerValue(0x10));
        Ptr<BackgroundTenant> tenant = helper->Install(network->GetServers());
        tenant->SetAttribute("AcksInDataBand",
                             BooleanValue(s.transportSettings.backgroundAcksInDataBand));
        Counts counts;
        // The bands exist once the simulation has initialized the queue discs.
        Simulator::Schedule(Seconds(0), &ConnectBands, network, s.workers, &counts);
        TypeIdValue socketType;
        network->GetServer(0)->GetObject<TcpL4Protocol>()->GetAttribute("SocketType", socketType);
        congestion = socketType.Get().GetName();
        Simulator::Stop(MilliSeconds(60));
        Simulator::Run();
        Simulator::Destroy();
        return counts;
    }

    void
    DoRun() override
    {
        std::string congestion;
        Counts thesis = Run("thesis", congestion);
        NS_TEST_ASSERT_MSG_EQ(congestion, "ns3::TcpNewReno", "thesis congestion control");
        NS_TEST_ASSERT_MSG_GT(thesis.data[0], 100, "background data in band 0");
        NS_TEST_ASSERT_MSG_GT(thesis.acks[1], 100, "background ACKs in band 1");
        NS_TEST_ASSERT_MSG_EQ(thesis.data[1], 0, "no data in band 1");
        NS_TEST_ASSERT_MSG_GT(thesis.data[2], 100, "training data in band 2");
        NS_TEST_ASSERT_MSG_GT(thesis.acks[2], 100, "training ACKs in band 2");
        Counts tuned = Run("tuned", congestion);
        NS_TEST_ASSERT_MSG_EQ(congestion, "ns3::TcpCubic", "tuned congestion control");
        NS_TEST_ASSERT_MSG_EQ(tuned.data[1] + tuned.acks[1], 0, "tuned: band 1 empty");
        NS_TEST_ASSERT_MSG_GT(tuned.acks[0], 100, "tuned: background ACKs with their data");
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
        ddnntest::ApplyTunedTransport(); // the one explicit place TCP is set up
        NodeContainer servers(4);
        NodeContainer tors(2);
        InternetStackHelper().Install(servers);
        InternetStackHelper().Install(tors);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        link.SetChannelAttribute("Delay", StringValue("10us"));
        Ipv4AddressHelper addresses("10.7.0.0", "255.255.255.0");
        for (uint32_t i = 0; i < 4; ++i)
        {
            addresses.Assign(link.Install(servers.Get(i), tors.Get(i / 2)));
            addresses.NewNetwork();
        }
        addresses.Assign(link.Install(tors.Get(0), tors.Get(1))); // the racks' interconnect
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        Ptr<ServerList> topology = CreateObject<ServerList>(servers);

        TrainingHelper training;
        training.SetAttribute("ProfileFile", StringValue(ddnntest::ScaledThesisProfile(100)));
        training.SetAttribute("FusionBufferBytes", UintegerValue(53334));
        training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(2)));
        training.SetAttribute("Iterations", UintegerValue(1));
        training.Install(topology);
        Ptr<TrainingJob> job = training.GetJob();

        std::string cdf = ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n");
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetAttribute("CdfFile", StringValue(cdf));
        background->SetAttribute("FlowRate", DoubleValue(200));
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
 * Training alone and compute-bound (rcp 16): its measured load matches
 * eq. 5.2 (1/16 of the link) within 10 %.
 */
class TrainingLoadTestCase : public TestCase
{
  public:
    TrainingLoadTestCase()
        : TestCase("compute-bound training load matches eq. 5.2 within 10 %")
    {
    }

  private:
    void
    DoRun() override
    {
        TrainingScenario s;
        s.workers = 4;
        s.profile = ddnntest::ScaledThesisProfile(100);
        s.fusionBytes = 53334;
        s.rcp = 16;
        s.iterations = 10;
        Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
        InstalledTraining training = InstallTraining(s, network);
        Time compute = training.job->GetModel()->GetComputeTime();
        // whole iterations only: the 2nd to the 9th
        UtilizationMeter meter(network, MilliSeconds(10), compute, 9 * compute);
        Simulator::Run();
        const double expected = 1.0 / 16;
        const double measured = meter.GetUplinkUtilization(TenantKind::TRAINING)
                                * TransportSettings().GoodputFraction();
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, expected * 0.10, "training load");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Flow bookkeeping with both tenants: a flow still running at the end is
 * reported as started and not completed; hundreds of concurrent flows from
 * one server all complete; the same seed gives both runs the same flows.
 */
class FlowBookkeepingTestCase : public TestCase
{
  public:
    FlowBookkeepingTestCase()
        : TestCase("unfinished flows are counted, 300 concurrent flows complete, same schedule")
    {
    }

  private:
    void
    DoRun() override
    {
        // 300 flows of 30 kB from server 0 at t = 0, and one 30 MB flow that cannot finish
        std::string text = "flow_id,from,to,size_bytes,start_ns\n";
        for (int i = 0; i < 300; ++i)
        {
            text += std::to_string(i) + ",0," + std::to_string(1 + i % 3) + ",30000,0\n";
        }
        text += "300,1,2,30000000,1000000\n";
        DatacenterScenario s;
        s.workers = 4;
        s.transport = "ideal"; // training present, but cheap
        s.rcp = 4;
        s.schedule = ddnntest::WriteTempFile("schedule.csv", text);
        s.durationS = 0.02;
        s.warmupS = 0;
        s.cooldownS = 0.001;
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
        DatacenterResult r = RunDatacenter(s, "same", flows, "");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_SMALL].started, 300, "small started");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_SMALL].completed, 300, "small completed");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_LARGE].started, 1, "large started");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_LARGE].completed, 0, "large still running");
        NS_TEST_ASSERT_MSG_EQ(r.fct[DDNN_FLOWS_ALL].started, 301, "all counted");

        DatacenterScenario g;
        g.workers = 4;
        g.flowRate = 200;
        g.durationS = 1;
        g.warmupS = 0.1;
        g.cooldownS = 0.1;
        g.seed = 7;
        std::vector<ddnn_flow> a = MakeBackgroundFlows(g);
        std::vector<ddnn_flow> b = MakeBackgroundFlows(g);
        NS_TEST_ASSERT_MSG_GT(a.size(), 500, "flows generated");
        NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "same count");
        bool same = a.size() == b.size();
        for (size_t i = 0; same && i < a.size(); ++i)
        {
            same = a[i].src == b[i].src && a[i].dst == b[i].dst && a[i].bytes == b[i].bytes
                   && a[i].start_ns == b[i].start_ns;
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "same seed, same flows");
        g.seed = 8;
        std::vector<ddnn_flow> c = MakeBackgroundFlows(g);
        NS_TEST_ASSERT_MSG_EQ((c.size() != a.size() || c[0].start_ns != a[0].start_ns),
                              true,
                              "another seed, other flows");
    }
};

/**
 * \ingroup ddnn-tests
 * Two jobs from one scenario file on a single ToR of 8 servers, no background flows to speak
 * of: the second <training> takes the first's values but those it gives, is packed on the
 * servers the first left free, starts at its start-s, and its band sets its ToS. Each job
 * moves the ring's bytes, writes its own files and summary keys, and (on disjoint servers
 * of a non-blocking switch) iterates as fast as it does alone, within 1 %.
 */
class SeveralJobsScenarioTestCase : public TestCase
{
  public:
    SeveralJobsScenarioTestCase()
        : TestCase("a scenario of two jobs: placement, start, band, per-job files, as alone")
    {
    }

  private:
    /** The scenario of `xml`'s text (a file in the temporary folder). */
    static DatacenterScenario
    Load(const std::string& xml)
    {
        DatacenterScenario s;
        ddnn_scenario x = ToCoreScenario(s);
        const std::string path = ddnntest::WriteTempFile("jobs.xml", xml);
        LoadScenarioFile(path, x);
        ApplyCoreScenario(x, path, s);
        return s;
    }

    void
    DoRun() override
    {
        const std::string profile = ddnntest::WriteProfile("jobs.csv", {1000000, 1000000});
        const std::string head = "<scenario version=\"1\"><topology workers=\"8\"/>"
                                 "<background flow-rate=\"0.001\"/>"
                                 "<run duration-s=\"0.05\" warmup-s=\"0\" cooldown-s=\"0.001\"/>";
        const std::string first = "<training workers=\"4\" profile=\"" + profile
                                  + "\" fusion-bytes=\"1000000\" compute-ms=\"1\" "
                                    "iterations=\"3\"/>";
        const std::string second = "<training start-s=\"0.005\" compute-ms=\"2\" band=\"0\"/>";
        DatacenterScenario both = Load(head + first + second + "</scenario>");
        NS_TEST_ASSERT_MSG_EQ(both.moreJobs.size(), 1, "two jobs");
        NS_TEST_ASSERT_MSG_EQ(both.moreJobs[0].jobWorkers, 4, "the first job's workers");
        NS_TEST_ASSERT_MSG_EQ(both.moreJobs[0].computeMs, 2, "its own compute time");
        NS_TEST_ASSERT_MSG_EQ(both.moreJobs[0].iterations, 3, "the first job's iterations");
        // Bands: the first job's from the priority (low: band 2), the second's its own (0).
        const TrainingScenario part = both.TrainingPart("low");
        NS_TEST_ASSERT_MSG_EQ(part.tos, 0x08, "job 1 at low priority");
        NS_TEST_ASSERT_MSG_EQ(part.moreJobs[0].tos, 0x10, "job 2 in band 0");
        // With four bands (prio4), band 1 is ToS 0x18 and band 3 ToS 0x08.
        DatacenterScenario four = both;
        four.queueDisc = "prio4";
        four.moreJobs[0].band = "1";
        four.band = "3";
        NS_TEST_ASSERT_MSG_EQ(four.TrainingPart("same").moreJobs[0].tos, 0x18, "prio4 band 1");
        NS_TEST_ASSERT_MSG_EQ(four.TrainingPart("same").tos, 0x08, "prio4 band 3");

        const std::string dir = SystemPath::MakeTemporaryDirectoryName();
        SystemPath::MakeDirectories(dir);
        std::vector<ddnn_flow> flows = MakeBackgroundFlows(both);
        DatacenterResult r = RunDatacenter(both, "same", flows, dir);
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 2, "two results");
        for (const JobResult& job : r.jobs)
        {
            NS_TEST_ASSERT_MSG_EQ(job.training.iterationsCompleted, 3, "iterations");
            // ring: 2 (N - 1) / N x 2 MB per worker and iteration, N = 4
            NS_TEST_ASSERT_MSG_EQ(job.training.bytesPerWorkerPerIteration, 3000000, "ring bytes");
            NS_TEST_ASSERT_MSG_EQ(job.trainingBytesReceived.size(), 4, "four workers");
        }
        // The second job's first iteration starts at its start-s.
        std::ifstream iterations(dir + "/job2-iterations.csv");
        std::string header, row;
        std::getline(iterations, header);
        std::getline(iterations, row);
        NS_TEST_ASSERT_MSG_EQ(row.substr(0, 10), "0,0,0.005,", "job 2 starts at 5 ms: " + row);
        for (const char* file : {"buffers.csv", "partitions.csv", "layers.csv", "iterations.csv"})
        {
            NS_TEST_ASSERT_MSG_EQ(std::ifstream(dir + "/job2-" + file).good(), true, file);
            NS_TEST_ASSERT_MSG_EQ(std::ifstream(dir + "/" + file).good(), true, file);
        }
        std::map<std::string, std::string> rows;
        for (const auto& [key, value] : SummaryRows(r))
        {
            rows[key] = value;
        }
        NS_TEST_ASSERT_MSG_EQ(rows.count("iteration_time_mean_s"), 1, "job 1's keys");
        NS_TEST_ASSERT_MSG_EQ(rows.count("job2_iteration_time_mean_s"), 1, "job 2's keys");
        NS_TEST_ASSERT_MSG_EQ(rows.count("job2_util_training_measured"), 1, "job 2's load");

        // Each job alone: the second one's values as the only job (same servers: 4 of 8).
        const std::string alone = "<training workers=\"4\" profile=\"" + profile
                                  + "\" fusion-bytes=\"1000000\" compute-ms=\"2\" "
                                    "iterations=\"3\" start-s=\"0.005\" placement=\"4,5,6,7\"/>";
        DatacenterResult firstAlone
            = RunDatacenter(Load(head + first + "</scenario>"), "same", flows, "");
        DatacenterResult secondAlone
            = RunDatacenter(Load(head + alone + "</scenario>"), "same", flows, "");
        const double t1 = firstAlone.jobs[0].training.iterationTimeMeanS;
        const double t2 = secondAlone.jobs[0].training.iterationTimeMeanS;
        NS_TEST_ASSERT_MSG_GT(t1, 0.001, "longer than compute");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[0].training.iterationTimeMeanS, t1, t1 * 0.01, "job 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[1].training.iterationTimeMeanS, t2, t2 * 0.01, "job 2");
    }
};

/**
 * \ingroup ddnn-tests
 * Bad input of the background tenant: one line naming the argument, file and line.
 */
class BackgroundBadInputTestCase : public TestCase
{
  public:
    BackgroundBadInputTestCase()
        : TestCase("bad background input names the argument, file and line")
    {
    }

  private:
    void
    DoRun() override
    {
        DatacenterScenario s;
        s.workers = 4;
        s.flowRate = 0;
        std::string rate = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(rate, "--flowRate: expected a number in (0, "), true, rate);
        s.flowRate = 10;
        s.durationS = 1;
        s.warmupS = 0.6;
        s.cooldownS = 0.6;
        std::string window = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(window, "outside the run"), true, window);
        s.warmupS = 0.1;
        s.cooldownS = 0.1;
        s.trainingPriority = "urgent";
        std::string priority = ErrorOf([&] { s.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(priority, "--trainingPriority"), true, priority);
        s.trainingPriority = "low";

        s.schedule = ddnntest::WriteTempFile("bad.csv", "0,0,1,100,0\n1,0,7,100,5\n");
        std::string server = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(
            Contains(server, "bad.csv:2: field 'to': server 7 does not exist"), true, server);
        s.schedule = ddnntest::WriteTempFile("negative.csv", "0,0,1,-100,0\n");
        std::string negative = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(
            Contains(negative, "negative.csv:1: field 'size_bytes'"), true, negative);
        s.schedule = "";
        s.cdf = ddnntest::WriteTempFile("down.csv", "0,0\n10,0.7\n20,0.5\n30,1\n");
        std::string cdf = ErrorOf([&] { MakeBackgroundFlows(s); });
        NS_TEST_ASSERT_MSG_EQ(Contains(cdf, "down.csv:3: field 'cumulative_fraction'"), true, cdf);
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the background tenant and the combined scenario.
 */
class DatacenterTestSuite : public TestSuite
{
  public:
    DatacenterTestSuite()
        : TestSuite("ddnn-datacenter", Type::SYSTEM)
    {
        AddTestCase(new TopologyTestCase);
        AddTestCase(new SwitchPriorityTestCase);
        AddTestCase(new BackgroundLoadTestCase);
        AddTestCase(new TrainingLoadTestCase);
        AddTestCase(new TransportProfileBandsTestCase);
        AddTestCase(new OwnTopologyTestCase);
        AddTestCase(new FlowBookkeepingTestCase);
        AddTestCase(new SeveralJobsScenarioTestCase);
        AddTestCase(new BackgroundBadInputTestCase);
    }
};

static DatacenterTestSuite g_datacenterTestSuite; //!< registers the suite
