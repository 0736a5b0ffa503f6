/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The background tenant alone: its offered load against eq. 5.3, every flow completed, no
 * connection left open; its bulk flows in a band of their own.
 */
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

using namespace ns3;
using namespace ns3::ddnntest;

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
        Ptr<SingleTorHelper> network = TunedSingleTor(4);
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetPatternAttribute("CdfFile", StringValue(cdf));
        helper->SetPatternAttribute("FlowRate", DoubleValue(1000));
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
 * BulkPriority low: of two flows from one server, the small one (50 kB) travels in PfifoFast's
 * band 0 (the tenant's ToS 0x10), the one above BulkFlowBytes (300 kB) in band 2 (ToS 0x08),
 * each band holding its flow's bytes plus headers (1448-byte segments in 1500-byte packets, a
 * handshake) and nothing more; the tenant names both ToS; a wrong name is refused in one line.
 */
class BulkPriorityTestCase : public TestCase
{
  public:
    BulkPriorityTestCase()
        : TestCase("bulk priority: flows above BulkFlowBytes in band 2, the small one in band 0")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<SingleTorHelper> network = TunedSingleTor(2);
        Ptr<BackgroundTenant> tenant = CreateObject<BackgroundHelper>()->Install(
            network->GetServers(), {{0, 0, 1, 50000, 1000000}, {1, 0, 1, 300000, 1000000}});
        tenant->SetAttribute("BulkPriority", StringValue("low"));
        NS_TEST_ASSERT_MSG_EQ(+tenant->GetFlowTos(100000), 0x10, "at BulkFlowBytes: the tenant's");
        NS_TEST_ASSERT_MSG_EQ(+tenant->GetFlowTos(100001), 0x08, "above it: low's");
        NS_TEST_ASSERT_MSG_EQ(tenant->GetTosValues().count(0x08), 1, "the tenant names 0x08");
        Simulator::Run();
        for (const auto& flow : tenant->GetFlows())
        {
            NS_TEST_ASSERT_MSG_EQ(flow.Completed(), true, "flow " << flow.id << " completed");
        }
        Ptr<QueueDisc> egress = network->GetServerQueueDisc(0);
        const double band0 = egress->GetInternalQueue(0)->GetTotalReceivedBytes();
        const double band2 = egress->GetInternalQueue(2)->GetTotalReceivedBytes();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(band0, 50000, "band 0 holds the small flow");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(band0, 50000 * 1500 / 1448 + 1000, "and nothing else");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(band2, 300000, "band 2 holds the bulk flow");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(band2, 300000 * 1500 / 1448 + 1000, "and nothing else");
        NS_TEST_ASSERT_MSG_EQ(egress->GetInternalQueue(1)->GetTotalReceivedBytes(), 0, "band 1");
        const std::string wrong
            = ErrorOf([&] { tenant->SetAttribute("BulkPriority", StringValue("bulk")); });
        NS_TEST_ASSERT_MSG_EQ(wrong,
                              "ns3::BackgroundTenant::BulkPriority: expected same, low, high, "
                              "band0, band1 or band2, got 'bulk'",
                              "one line naming the attribute");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of the background tenant.
 */
/**
 * \ingroup ddnn-tests
 * The helper's deprecated FlowRate, CdfFile and ScheduleFile, GetFlowRate and GetMeanFlowBytes
 * still reach the pattern (until
 * 0.3): a FlowRate set on the helper is the web-search pattern's, and a ScheduleFile selects the
 * replay, whose flows are the file's.
 */
class DeprecatedPatternAttributesTestCase : public TestCase
{
  public:
    DeprecatedPatternAttributesTestCase()
        : TestCase("the helper's deprecated pattern attributes reach the pattern")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<BackgroundHelper> helper = CreateObject<BackgroundHelper>();
        helper->SetAttribute("FlowRate", DoubleValue(57));
        DoubleValue rate;
        helper->CreatePattern()->GetAttribute("FlowRate", rate);
        NS_TEST_ASSERT_MSG_EQ(rate.Get(), 57, "the web-search pattern's FlowRate");
        helper->SetPatternAttribute("FlowRate", DoubleValue(58));
        helper->CreatePattern()->GetAttribute("FlowRate", rate);
        NS_TEST_ASSERT_MSG_EQ(rate.Get(), 58, "SetPatternAttribute wins");

        // The helper's deprecated getters answer for the pattern until 0.3.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        const double deprecatedRate = helper->GetFlowRate();
        const double deprecatedMean = helper->GetMeanFlowBytes();
#pragma GCC diagnostic pop
        NS_TEST_ASSERT_MSG_EQ(deprecatedRate, 58, "GetFlowRate is the pattern's FlowRate");
        Ptr<WebSearchPattern> webSearch = DynamicCast<WebSearchPattern>(helper->CreatePattern());
        NS_TEST_ASSERT_MSG_EQ(deprecatedMean,
                              webSearch->GetMeanFlowBytes(),
                              "GetMeanFlowBytes is the web-search CDF's mean");

        const std::string schedule
            = ddnntest::WriteTempFile("deprecated-schedule.csv", "0,0,1,1000,0\n1,1,0,2000,5\n");
        Ptr<BackgroundHelper> replay = CreateObject<BackgroundHelper>();
        replay->SetAttribute("ScheduleFile", StringValue(schedule));
        NS_TEST_ASSERT_MSG_EQ(replay->CreatePattern()->GetInstanceTypeId().GetName(),
                              "ns3::ScheduleReplayPattern",
                              "a ScheduleFile selects the replay");
        const std::vector<ddnn_flow> flows = replay->MakeFlows(2);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 2, "the file's flows");
        const bool asWritten = flows.size() == 2 && flows[1].bytes == 2000;
        NS_TEST_ASSERT_MSG_EQ(asWritten, true, "as written");
    }
};

class BackgroundTestSuite : public TestSuite
{
  public:
    BackgroundTestSuite()
        : TestSuite("ddnn-background", Type::SYSTEM)
    {
        AddTestCase(new BackgroundLoadTestCase);
        AddTestCase(new DeprecatedPatternAttributesTestCase);
        AddTestCase(new BulkPriorityTestCase);
    }
};

static BackgroundTestSuite g_backgroundTestSuite; //!< registers the suite
