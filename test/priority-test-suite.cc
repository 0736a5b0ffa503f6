/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tenant priorities on a topology of the user's own (a dumbbell built with ns-3's helpers):
 * names to ToS, the check that the egress queue discs on the tenants' paths can act on them
 * (ns-3's default FqCoDel, a FIFO) and the one-call install of PfifoFast that makes them work.
 */
#include "ddnn-test-util.h"

#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

using ddnntest::ErrorOf;

bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

size_t
Count(const std::string& text, const std::string& part)
{
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    {
        ++n;
    }
    return n;
}

/** A dumbbell of the user's own: servers 0, 1 on router 0, servers 2, 3 on router 1. */
struct Dumbbell
{
    NodeContainer servers;
    NodeContainer routers;
    NetDeviceContainer core; //!< router 0's and router 1's devices on their link

    Dumbbell()
    {
        ddnntest::ApplyTunedTransport();
        servers.Create(4);
        routers.Create(2);
        InternetStackHelper().Install(NodeContainer(servers, routers));
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        link.SetChannelAttribute("Delay", StringValue("10us"));
        Ipv4AddressHelper addresses("10.9.0.0", "255.255.255.0");
        for (uint32_t i = 0; i < 4; ++i)
        {
            addresses.Assign(link.Install(servers.Get(i), routers.Get(i / 2)));
            addresses.NewNetwork();
        }
        core = link.Install(routers.Get(0), routers.Get(1));
        addresses.Assign(core);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }

    /** Training on the four servers at `priority`, and web-search-like flows among them. */
    Ptr<TrainingJob>
    InstallTenants(const std::string& priority, const std::string& check = "Warn")
    {
        TrainingHelper training;
        training.SetAttribute("ProfileFile", StringValue(ddnntest::ScaledThesisProfile(100)));
        training.SetAttribute("FusionBufferBytes", UintegerValue(53334));
        training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(2)));
        training.SetAttribute("Iterations", UintegerValue(1));
        training.SetAttribute("Priority", StringValue(priority));
        training.SetAttribute("PriorityCheck", StringValue(check));
        training.Install(servers);
        Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
        background->SetAttribute(
            "CdfFile", StringValue(ddnntest::WriteTempFile("uniform.csv", "0,0\n100000,1\n")));
        background->SetAttribute("FlowRate", DoubleValue(300));
        background->SetAttribute("Stop", TimeValue(MilliSeconds(20)));
        tenant = background->Install(servers);
        return training.GetJob();
    }

    Ptr<BackgroundTenant> tenant;
};

/** Runs the simulation until `stop` and returns what it printed on stderr. */
std::string
RunCapturingStderr(Time stop)
{
    std::ostringstream captured;
    std::streambuf* previous = std::cerr.rdbuf(captured.rdbuf());
    Simulator::Stop(stop);
    try
    {
        Simulator::Run();
    }
    catch (...)
    {
        std::cerr.rdbuf(previous);
        throw;
    }
    std::cerr.rdbuf(previous);
    return captured.str();
}

} // namespace

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
 * Test suite of tenant priorities on a topology of the user's own.
 */
class PriorityTestSuite : public TestSuite
{
  public:
    PriorityTestSuite()
        : TestSuite("ddnn-priority", Type::SYSTEM)
    {
        AddTestCase(new PriorityNamesTestCase);
        AddTestCase(new DefaultQueueDiscsTestCase);
        AddTestCase(new OneCallInstallTestCase);
    }
};

static PriorityTestSuite g_priorityTestSuite; //!< registers the suite
