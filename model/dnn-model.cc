/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dnn-model.h"

#include "data-path.h"
#include "ddnn-chakra.h"
#include "one-line-error.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DnnModel");
NS_OBJECT_ENSURE_REGISTERED(DnnModel);

TypeId
DnnModel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DnnModel")
              .SetParent<Object>()
              .SetGroupName("Ddnn")
              .AddConstructor<DnnModel>()
              .AddAttribute("ProfileFile",
                            "CSV profile: layer,param_bytes,forward_ns,backward_ns per row; "
                            "empty: the shipped thesis profile (thesis-default-profile.csv in "
                            "ddnn's data folder, see DdnnDataPath).",
                            StringValue(""),
                            MakeStringAccessor(&DnnModel::m_profileFile),
                            MakeStringChecker())
              .AddAttribute("ChakraTrace",
                            "Folder of a Chakra execution trace, <prefix>.<rank>.et per rank: the "
                            "model is the trace's (one layer per all-reduce, its own compute "
                            "times; ComputeTime does not apply). Excludes ProfileFile; empty: "
                            "none.",
                            StringValue(""),
                            MakeStringAccessor(&DnnModel::m_chakraTrace),
                            MakeStringChecker())
              .AddAttribute("FusionBufferBytes",
                            "Largest fusion buffer in bytes (Horovod tensor fusion); at least 1.",
                            UintegerValue(5333329),
                            MakeUintegerAccessor(&DnnModel::m_fusionBufferBytes),
                            MakeUintegerChecker<uint64_t>(1, 9007199254740992ULL))
              .AddAttribute("ByteScale",
                            "A scaled replica's factor in (0, 1]: every layer's parameter bytes "
                            "times this (rounded, at least 1 byte), fused into the buffers of "
                            "the model at full scale; on links scaled by the same factor the "
                            "transfer times stay. 1: the model as given.",
                            DoubleValue(1),
                            MakeDoubleAccessor(&DnnModel::m_byteScale),
                            MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1))
              .AddAttribute("ComputeTime",
                            "Compute time of one iteration (forward plus backward); the "
                            "profile's times are scaled to it.",
                            TimeValue(MilliSeconds(900)),
                            MakeTimeAccessor(&DnnModel::SetComputeTime, &DnnModel::GetComputeTime),
                            MakeTimeChecker());
    return tid;
}

DnnModel::DnnModel() = default;

DnnModel::~DnnModel()
{
    Unload();
}

void
DnnModel::DoDispose()
{
    Unload();
    Object::DoDispose();
}

void
DnnModel::Unload()
{
    ddnn_fusion_plan_free(m_plan);
    ddnn_profile_free(m_profile);
    m_plan = nullptr;
    m_profile = nullptr;
}

void
DnnModel::Load()
{
    NS_LOG_FUNCTION(this << m_profileFile << m_chakraTrace);
    Unload();
    m_chakraRanks = 0;
    if (!m_chakraTrace.empty())
    {
        if (!m_profileFile.empty())
        {
            throw DdnnError("ns3::DnnModel::ChakraTrace: excludes ProfileFile (" + m_profileFile
                            + "): a trace is its own model; set one of them");
        }
        ddnn_diag diag{};
        char file[1024];
        ddnn_chakra_trace* trace = nullptr;
        // Read first: the file at fault is known only once the reader returns.
        const int rc
            = ddnn_chakra_read_folder(&trace, m_chakraTrace.c_str(), file, sizeof file, &diag);
        CheckReadOutcome(rc, diag, file, "ns3::DnnModel::ChakraTrace");
        m_chakraRanks = ddnn_chakra_trace_ranks(trace);
        m_chakraExpectedBytes = ddnn_chakra_trace_expected_bytes_per_worker(trace);
        m_profile = ddnn_chakra_trace_take_profile(trace);
        ddnn_chakra_trace_free(trace);
        // The trace's times as they are: a trace of communication only has no compute to scale.
        const size_t layers = ddnn_profile_layer_count(m_profile);
        m_forwardNs.resize(layers);
        m_backwardNs.resize(layers);
        for (size_t l = 0; l < layers; ++l)
        {
            m_forwardNs[l] = ddnn_profile_layer(m_profile, l)->forward_ns;
            m_backwardNs[l] = ddnn_profile_layer(m_profile, l)->backward_ns;
        }
        m_computeTime = NanoSeconds(ddnn_profile_compute_ns(m_profile));
        m_chakraExpectedBytes *= m_byteScale;
        NS_LOG_INFO("Chakra trace " << m_chakraTrace << ": " << m_chakraRanks << " ranks, "
                                    << layers << " all-reduces, compute " << m_computeTime);
        Fuse(m_chakraTrace);
        ScaleBytes();
        return;
    }
    if (m_profileFile.empty())
    {
        m_profileFile = DdnnDataPath("thesis-default-profile.csv");
        if (!std::ifstream(m_profileFile).good())
        {
            throw DdnnError("ns3::DnnModel::ProfileFile: not set, and the shipped thesis "
                            "profile is not at "
                            + m_profileFile
                            + ": set ProfileFile, or DDNN_DATA_DIR to ddnn's data folder");
        }
    }
    ddnn_diag diag{};
    CheckReadOutcome(ddnn_profile_read_file(&m_profile, m_profileFile.c_str(), &diag),
                     diag,
                     m_profileFile,
                     "ns3::DnnModel::ProfileFile");
    Scale();
    Fuse(m_profileFile);
    ScaleBytes();
}

void
DnnModel::ScaleBytes()
{
    // After Fuse: the replica's buffers hold the layers they hold at full scale, which a
    // fusion of rounded layers under a scaled limit would not always give.
    if (m_byteScale == 1)
    {
        return;
    }
    if (ddnn_profile_scale_bytes(m_profile, m_byteScale) != DDNN_OK
        || ddnn_fusion_plan_refill(m_plan, m_profile) != DDNN_OK)
    {
        std::ostringstream os;
        os << "ns3::DnnModel::ByteScale: expected a factor in (0, 1], got " << m_byteScale;
        throw DdnnError(os.str());
    }
}

void
DnnModel::Fuse(const std::string& source)
{
    int rc = ddnn_fusion_plan_new(&m_plan, m_profile, m_fusionBufferBytes);
    if (rc != DDNN_OK)
    {
        throw DdnnError(std::string("ns3::DnnModel: tensor fusion failed: ") + ddnn_strerror(rc));
    }
    for (uint32_t b = 0; b < GetBufferCount(); ++b)
    {
        Buffer buffer = GetBuffer(b);
        if (buffer.oversized)
        {
            std::cerr << "ddnn: warning: " << source << ": layer " << buffer.lowestLayer
                      << " holds " << buffer.bytes << " bytes, more than FusionBufferBytes ("
                      << m_fusionBufferBytes << "); it travels alone in its own buffer"
                      << std::endl;
        }
    }
}

void
DnnModel::SetComputeTime(Time computeTime)
{
    if (m_chakraRanks > 0 && computeTime != m_computeTime)
    {
        throw DdnnError("ns3::DnnModel::ComputeTime: the model is the Chakra trace " + m_chakraTrace
                        + ", whose compute times are its own");
    }
    m_computeTime = computeTime;
    if (m_profile && m_chakraRanks == 0)
    {
        Scale(); // the profile is read once; a new compute time only rescales it
    }
}

void
DnnModel::Scale()
{
    if (m_computeTime.GetNanoSeconds() <= 0)
    {
        std::ostringstream os;
        os << "ns3::DnnModel::ComputeTime: expected a positive time, got " << m_computeTime;
        throw DdnnError(os.str());
    }
    const size_t layers = ddnn_profile_layer_count(m_profile);
    m_forwardNs.assign(layers, 0);
    m_backwardNs.assign(layers, 0);
    ddnn_profile_scale(
        m_profile, m_computeTime.GetNanoSeconds(), m_forwardNs.data(), m_backwardNs.data());
}

void
DnnModel::EnsureLoaded() const
{
    if (!m_plan)
    {
        const_cast<DnnModel*>(this)->Load();
    }
}

uint32_t
DnnModel::GetLayerCount() const
{
    EnsureLoaded();
    return ddnn_profile_layer_count(m_profile);
}

uint64_t
DnnModel::GetLayerBytes(uint32_t layer) const
{
    NS_ASSERT(layer < GetLayerCount());
    return ddnn_profile_layer(m_profile, layer)->param_bytes;
}

Time
DnnModel::GetForwardTime(uint32_t layer) const
{
    NS_ASSERT(layer < GetLayerCount());
    return NanoSeconds(m_forwardNs[layer]);
}

Time
DnnModel::GetBackwardTime(uint32_t layer) const
{
    NS_ASSERT(layer < GetLayerCount());
    return NanoSeconds(m_backwardNs[layer]);
}

uint64_t
DnnModel::GetTotalBytes() const
{
    EnsureLoaded();
    return ddnn_profile_total_bytes(m_profile);
}

Time
DnnModel::GetComputeTime() const
{
    return m_computeTime;
}

uint32_t
DnnModel::GetBufferCount() const
{
    EnsureLoaded();
    return ddnn_fusion_plan_buffer_count(m_plan);
}

DnnModel::Buffer
DnnModel::GetBuffer(uint32_t buffer) const
{
    NS_ASSERT(buffer < GetBufferCount());
    const ddnn_fusion_buffer* b = ddnn_fusion_plan_buffer(m_plan, buffer);
    return Buffer{b->lowest_layer, b->highest_layer, b->bytes, b->oversized != 0};
}

uint32_t
DnnModel::GetBufferOfLayer(uint32_t layer) const
{
    NS_ASSERT(layer < GetLayerCount());
    return ddnn_fusion_plan_buffer_of_layer(m_plan, layer);
}

const ddnn_profile*
DnnModel::GetProfile() const
{
    EnsureLoaded();
    return m_profile;
}

bool
DnnModel::IsChakraTrace() const
{
    return !m_chakraTrace.empty();
}

uint32_t
DnnModel::GetChakraRanks() const
{
    EnsureLoaded();
    return m_chakraRanks;
}

double
DnnModel::GetChakraExpectedBytesPerWorker() const
{
    EnsureLoaded();
    return m_chakraRanks > 0 ? m_chakraExpectedBytes : std::numeric_limits<double>::quiet_NaN();
}

const ddnn_fusion_plan*
DnnModel::GetFusionPlan() const
{
    EnsureLoaded();
    return m_plan;
}

} // namespace ns3
