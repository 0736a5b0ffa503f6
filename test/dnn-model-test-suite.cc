/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/ddnn-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;

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
        std::string zero = ErrorOf(good, 0, Seconds(1));
        NS_TEST_ASSERT_MSG_NE(zero.find("FusionBufferBytes"), std::string::npos, zero);
        std::string time = ErrorOf(good, 100, Seconds(0));
        NS_TEST_ASSERT_MSG_NE(time.find("ComputeTime"), std::string::npos, time);
        std::string none = ErrorOf("", 100, Seconds(1));
        NS_TEST_ASSERT_MSG_NE(none.find("ProfileFile"), std::string::npos, none);
        // The CDF is a well-formed CSV but not a profile: the row has 2 fields, not 4.
        const std::string cdf = DdnnDataPath("web-search-cdf.csv");
        std::string wrong = ErrorOf(cdf, 100, Seconds(1));
        NS_TEST_ASSERT_MSG_NE(wrong.find(cdf + ":"), std::string::npos, wrong);
        NS_TEST_ASSERT_MSG_NE(
            wrong.find("expected 4 comma-separated fields"), std::string::npos, wrong);
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
        AddTestCase(new DnnModelBadInputTestCase);
    }
};

static DnnModelTestSuite g_dnnModelTestSuite; //!< registers the suite
