/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../examples/runner/ddnn-scenario-params.h"
#include "ns3/data-rate.h"
#include "ns3/ddnn-module.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>

using namespace ns3;

/**
 * \ingroup ddnn-tests
 * The ns-3 objects' attribute defaults agree with the scenario's parameter table
 * (examples/runner/ddnn-scenario-rows.def), so that a program using the objects directly gets the
 * same model as one using a scenario.
 */
class AttributeDefaultsTestCase : public TestCase
{
  public:
    AttributeDefaultsTestCase()
        : TestCase("attribute defaults agree with the scenario's parameter table")
    {
    }

  private:
    /** The attribute's default as text (numbers, booleans, enum names lower-cased). */
    static std::string
    Default(const std::string& type, const std::string& attribute)
    {
        TypeId::AttributeInformation info;
        if (!TypeId::LookupByName(type).LookupAttributeByName(attribute, &info))
        {
            return "(no attribute " + type + "::" + attribute + ")";
        }
        if (auto time = DynamicCast<const TimeValue>(info.initialValue))
        {
            return std::to_string(time->Get().GetNanoSeconds()) + "ns";
        }
        std::string text = info.initialValue->SerializeToString(info.checker);
        for (char& c : text)
        {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return text;
    }

    /** The table's default of "element.attribute", a time converted to ns when a unit says so. */
    static std::string
    Table(const std::string& name, double nanosecondsPerUnit = 0)
    {
        const ddnn_param* p = ddnn_scenario_param_named(name.c_str());
        if (!p)
        {
            return "(no parameter " + name + ")";
        }
        if (nanosecondsPerUnit > 0)
        {
            return std::to_string(
                       static_cast<int64_t>(std::stod(ddnn_param_default(p)) * nanosecondsPerUnit))
                   + "ns";
        }
        return ddnn_param_default(p);
    }

    void
    DoRun() override
    {
        // The rows that name the attribute they set (ddnn_param::sets) are checked, every one,
        // by ddnn-scenario-runner's "an attribute a table row sets defaults to the row's
        // default"; these are the rows the runner converts before they reach an object.
        const std::pair<std::string, std::string> pairs[] = {
            // A tenant's default ToS: the table's priority "same", every tenant's default.
            {Default("ns3::TcpPartitionTransport", "Tos"),
             std::to_string(TenantPriority::Tos("same", "same"))},
            {TrainingHelper().GetTransport(),
             PartitionTransport::Lookup(Table("training.transport")).GetName()},
            {Default("ns3::TcpPartitionTransport", "SendChunkBytes"),
             Table("transport.send-chunk-bytes")},
            {Default("ns3::BackgroundTenant", "SendChunkBytes"),
             Table("transport.send-chunk-bytes")},
            {Default("ns3::BackgroundTenant", "AcksInDataBand"),
             Table("transport.background-acks-in-data-band")},
            {Default("ns3::SingleTorHelper", "Delay"), Table("topology.delay-us", 1e3)},
            {Default("ns3::SingleTorHelper", "EcnThresholdPackets"),
             Table("topology.ecn-threshold-packets")},
            {Default("ns3::SingleTorHelper", "QueueDisc") == "pfifofast" ? "pfifo-fast" : "?",
             Table("topology.queue-disc")},
            {Default("ns3::TcpPartitionTransport", "CongestionControl").empty() ? "same" : "?",
             Table("transport.training-congestion-control")},
            {Default("ns3::BackgroundTenant", "CongestionControl").empty() ? "same" : "?",
             Table("transport.background-congestion-control")},
        };
        for (const auto& [attribute, table] : pairs)
        {
            NS_TEST_EXPECT_MSG_EQ(attribute, table, "attribute default vs parameter table");
        }
        DataRateValue rate;
        CreateObject<SingleTorHelper>()->GetAttribute("DataRate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate(Table("topology.data-rate")), "data rate");
    }
};

/**
 * \ingroup ddnn-tests
 * Every attribute of every ddnn type is listed in its type's entry of doc/user.rst's
 * Attributes section, so the documentation cannot fall behind the code.
 */
class AttributesDocumentedTestCase : public TestCase
{
  public:
    AttributesDocumentedTestCase()
        : TestCase("every attribute is in the docs' attribute list")
    {
    }

  private:
    void
    DoRun() override
    {
        const std::string data = DdnnDataPath("web-search-cdf.csv");
        const std::string path = data.substr(0, data.rfind('/')) + "/../doc/user.rst";
        std::ifstream in(path);
        NS_TEST_ASSERT_MSG_EQ(in.good(), true, "cannot read " << path);
        const std::string doc((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
        const size_t from = doc.find("\nAttributes\n=");
        NS_TEST_ASSERT_MSG_NE(from, std::string::npos, "no Attributes section in " << path);
        // The section ends where the next title's underline starts.
        const std::string section = doc.substr(from, doc.find("\n=====", from + 14) - from);
        for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            if (tid.GetGroupName() != "Ddnn" || tid.GetAttributeN() == 0)
            {
                continue;
            }
            // The type's entry: from "* ``ns3::Type``" to the next entry.
            const size_t entry = section.find("* ``" + tid.GetName() + "``");
            NS_TEST_EXPECT_MSG_NE(entry, std::string::npos, tid.GetName() << " has no entry");
            if (entry == std::string::npos)
            {
                continue;
            }
            const std::string text = section.substr(entry, section.find("\n* ", entry + 1) - entry);
            for (uint32_t a = 0; a < tid.GetAttributeN(); ++a)
            {
                const std::string name = tid.GetAttribute(a).name;
                NS_TEST_EXPECT_MSG_NE(text.find("``" + name + "``"),
                                      std::string::npos,
                                      tid.GetName() << "::" << name << " is not documented");
            }
        }
    }
};

/**
 * \ingroup ddnn-tests
 * The thesis default model through the ns-3 object: 50 layers, 98,222,124
 * bytes, 19 buffers at 5,333,329 bytes, compute times scaled exactly.
 */
class DnnModelThesisDefaultTestCase : public TestCase
{
  public:
    DnnModelThesisDefaultTestCase()
        : TestCase("thesis default profile: layers, bytes, buffers and scaled times")
    {
    }

  private:
    void
    DoRun() override
    {
        Ptr<DnnModel> model = CreateObject<DnnModel>();
        model->SetAttribute("ProfileFile", StringValue(DdnnDataPath("thesis-default-profile.csv")));
        model->SetAttribute("ComputeTime", TimeValue(MilliSeconds(280)));
        model->Load();
        NS_TEST_ASSERT_MSG_EQ(model->GetLayerCount(), 50, "layers");
        NS_TEST_ASSERT_MSG_EQ(model->GetTotalBytes(), 98222124, "model bytes");
        NS_TEST_ASSERT_MSG_EQ(model->GetBufferCount(), 19, "fusion buffers");

        Time forward;
        Time backward;
        uint64_t bufferBytes = 0;
        for (uint32_t l = 0; l < model->GetLayerCount(); ++l)
        {
            forward += model->GetForwardTime(l);
            backward += model->GetBackwardTime(l);
        }
        for (uint32_t b = 0; b < model->GetBufferCount(); ++b)
        {
            bufferBytes += model->GetBuffer(b).bytes;
            NS_TEST_ASSERT_MSG_LT_OR_EQ(model->GetBuffer(b).bytes, 5333329, "buffer size");
        }
        NS_TEST_ASSERT_MSG_EQ(forward + backward, MilliSeconds(280), "scaled compute time");
        NS_TEST_ASSERT_MSG_EQ_TOL(forward.GetSeconds(), 0.280 / 3, 1e-8, "forward is 1/3");
        NS_TEST_ASSERT_MSG_EQ(bufferBytes, model->GetTotalBytes(), "every byte in one buffer");
        NS_TEST_ASSERT_MSG_EQ(model->GetBufferOfLayer(49), 0, "last layer fills first");
        NS_TEST_ASSERT_MSG_EQ(model->GetBuffer(model->GetBufferOfLayer(0)).lowestLayer,
                              0,
                              "layer 0 in the last buffer");
    }
};

/**
 * \ingroup ddnn-tests
 * A scaled replica's model (ByteScale): each buffer holds the layers it holds at full scale
 * (at 0.1 the thesis profile's rounded layers under a tenth of the fusion limit would make 21
 * buffers, not 19), its bytes the sum of its layers' rounded bytes; a Chakra trace's bytes
 * and expected bytes per worker scale too; the compute time does not.
 */
class DnnModelByteScaleTestCase : public TestCase
{
  public:
    DnnModelByteScaleTestCase()
        : TestCase("a scaled replica's model keeps the full-scale buffers, its bytes times p")
    {
    }

  private:
    static Ptr<DnnModel>
    Loaded(const std::string& attribute, const std::string& source, double scale)
    {
        Ptr<DnnModel> model = CreateObject<DnnModel>();
        if (attribute == "ChakraTrace")
        {
            model->SetAttribute("ProfileFile", StringValue(""));
        }
        model->SetAttribute(attribute, StringValue(source));
        model->SetAttribute("ByteScale", DoubleValue(scale));
        model->Load();
        return model;
    }

    void
    DoRun() override
    {
        const std::string thesis = DdnnDataPath("thesis-default-profile.csv");
        Ptr<DnnModel> full = Loaded("ProfileFile", thesis, 1);
        Ptr<DnnModel> tenth = Loaded("ProfileFile", thesis, 0.1);
        NS_TEST_ASSERT_MSG_EQ(tenth->GetBufferCount(), full->GetBufferCount(), "buffers kept");
        uint64_t layers = 0;
        for (uint32_t l = 0; l < full->GetLayerCount(); ++l)
        {
            const uint64_t bytes = tenth->GetLayerBytes(l);
            NS_TEST_ASSERT_MSG_EQ(bytes,
                                  std::max<uint64_t>(1, std::llround(full->GetLayerBytes(l) * 0.1)),
                                  "layer rounded");
            layers += bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(tenth->GetTotalBytes(), layers, "model bytes: the layers' sum");
        for (uint32_t b = 0; b < full->GetBufferCount(); ++b)
        {
            const DnnModel::Buffer f = full->GetBuffer(b);
            const DnnModel::Buffer t = tenth->GetBuffer(b);
            NS_TEST_ASSERT_MSG_EQ(t.lowestLayer, f.lowestLayer, "buffer " << b << ": first layer");
            NS_TEST_ASSERT_MSG_EQ(t.highestLayer, f.highestLayer, "buffer " << b << ": last layer");
            uint64_t sum = 0;
            for (uint32_t l = t.lowestLayer; l <= t.highestLayer; ++l)
            {
                sum += tenth->GetLayerBytes(l);
            }
            NS_TEST_ASSERT_MSG_EQ(t.bytes, sum, "buffer " << b << ": its layers' bytes");
        }
        NS_TEST_ASSERT_MSG_EQ(tenth->GetComputeTime(), full->GetComputeTime(), "compute kept");
        // A trace of 3 all-reduces on 4 ranks (1,125,000 bytes per worker per iteration).
        const std::string trace = DdnnDataPath("chakra/training-4");
        Ptr<DnnModel> half = Loaded("ChakraTrace", trace, 0.5);
        NS_TEST_ASSERT_MSG_EQ(half->GetTotalBytes() * 2,
                              Loaded("ChakraTrace", trace, 1)->GetTotalBytes(),
                              "trace bytes halved");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            half->GetChakraExpectedBytesPerWorker(), 562500, 1e-6, "expected bytes halved");
    }
};

/**
 * \ingroup ddnn-tests
 * Bad input: the error names the file, line and field, or the attribute.
 */
class DnnModelBadInputTestCase : public TestCase
{
  public:
    DnnModelBadInputTestCase()
        : TestCase("bad profile input raises DdnnError naming the source")
    {
    }

  private:
    static std::string
    ErrorOf(const std::string& file, uint64_t fusionBytes, Time compute)
    {
        Ptr<DnnModel> model = CreateObject<DnnModel>();
        model->SetAttribute("ProfileFile", StringValue(file));
        model->SetAttribute("FusionBufferBytes", UintegerValue(fusionBytes));
        model->SetAttribute("ComputeTime", TimeValue(compute));
        try
        {
            model->Load();
        }
        catch (const DdnnError& e)
        {
            return e.what();
        }
        return "";
    }

    void
    DoRun() override
    {
        const std::string good = DdnnDataPath("thesis-default-profile.csv");
        std::string missing = ErrorOf("/nonexistent/model.csv", 100, Seconds(1));
        NS_TEST_ASSERT_MSG_NE(
            missing.find("/nonexistent/model.csv: cannot open"), std::string::npos, missing);
        NS_TEST_ASSERT_MSG_EQ(
            CreateObject<DnnModel>()->SetAttributeFailSafe("FusionBufferBytes", UintegerValue(0)),
            false,
            "FusionBufferBytes' checker refuses 0 bytes");
        std::string time = ErrorOf(good, 100, Seconds(0));
        NS_TEST_ASSERT_MSG_NE(time.find("ComputeTime"), std::string::npos, time);
        // No profile named: the shipped thesis profile (50 layers), no error.
        std::string none = ErrorOf("", 100, Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(none, "", "an empty ProfileFile loads the thesis profile");
        Ptr<DnnModel> thesis = CreateObject<DnnModel>();
        NS_TEST_ASSERT_MSG_EQ(thesis->GetLayerCount(), 50, "the thesis profile by default");
        // The CDF is a well-formed CSV but not a profile: its header names 2 columns, not 4.
        const std::string cdf = DdnnDataPath("web-search-cdf.csv");
        std::string wrong = ErrorOf(cdf, 100, Seconds(1));
        NS_TEST_ASSERT_MSG_NE(wrong.find(cdf + ":"), std::string::npos, wrong);
        NS_TEST_ASSERT_MSG_NE(
            wrong.find("expected the header 'layer,param_bytes,forward_ns,backward_ns'"),
            std::string::npos,
            wrong);
    }
};

/**
 * \ingroup ddnn-tests
 * Test suite of ns3::DnnModel.
 */
class DnnModelTestSuite : public TestSuite
{
  public:
    DnnModelTestSuite()
        : TestSuite("ddnn-dnn-model", Type::UNIT)
    {
        AddTestCase(new DnnModelThesisDefaultTestCase);
        AddTestCase(new DnnModelByteScaleTestCase);
        AddTestCase(new DnnModelBadInputTestCase);
        AddTestCase(new AttributeDefaultsTestCase);
        AddTestCase(new AttributesDocumentedTestCase);
    }
};

static DnnModelTestSuite g_dnnModelTestSuite; //!< registers the suite
