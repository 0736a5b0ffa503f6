/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DNN_MODEL_H
#define DNN_MODEL_H

#include "ddnn-fusion.h"
#include "ddnn-profile.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A DNN as the network sees it: layers with gradient bytes and compute
 * times, fused into fusion buffers (one collective each).
 *
 * Reads the profile CSV named by ProfileFile (empty: the shipped thesis profile,
 * found by DdnnDataPath), scales its compute times so one
 * iteration (forward and backward) takes ComputeTime, and fuses the layers in
 * backward order into buffers of at most FusionBufferBytes (a larger layer
 * travels alone, with a warning on stderr).
 *
 * Or reads the Chakra execution trace in the folder ChakraTrace (model/ddnn-chakra.h): one
 * layer per all-reduce, the trace's own compute times (not scaled: ComputeTime becomes their
 * sum and cannot be set while the trace is loaded).
 */
class DnnModel : public Object
{
  public:
    /** One fusion buffer: the layers [lowestLayer, highestLayer] and their bytes. */
    struct Buffer
    {
        uint32_t lowestLayer;  //!< lowest layer index, also the priority (lower goes first)
        uint32_t highestLayer; //!< highest layer index
        uint64_t bytes;        //!< gradient bytes to allreduce
        bool oversized;        //!< a single layer larger than FusionBufferBytes
    };

    static TypeId GetTypeId();
    DnnModel();
    ~DnnModel() override;

    /**
     * Reads, scales and fuses. Throws DdnnError naming the file, line and field
     * (or the attribute) at fault. Called implicitly by the getters.
     */
    void Load();

    uint32_t GetLayerCount() const;
    uint64_t GetLayerBytes(uint32_t layer) const;
    Time GetForwardTime(uint32_t layer) const;
    Time GetBackwardTime(uint32_t layer) const;
    /** Sum of all layers' gradient bytes. */
    uint64_t GetTotalBytes() const;
    /** Compute time of one iteration, as configured. */
    Time GetComputeTime() const;
    /** Sets the compute time of one iteration; a loaded profile is rescaled, not read again. */
    void SetComputeTime(Time computeTime);

    /** Buffers in the order they fill during backward: buffer 0 holds the last layer. */
    uint32_t GetBufferCount() const;
    Buffer GetBuffer(uint32_t buffer) const;
    uint32_t GetBufferOfLayer(uint32_t layer) const;

    /** The C core's profile (read-only), for hosts that drive the core themselves. */
    const ddnn_profile* GetProfile() const;
    /** The C core's fusion plan (read-only). */
    const ddnn_fusion_plan* GetFusionPlan() const;

    /** Whether the model comes from a Chakra trace (ChakraTrace set). */
    bool IsChakraTrace() const;
    /** The trace's ranks (0 without a trace). */
    uint32_t GetChakraRanks() const;
    /**
     * The bytes a worker sends per iteration by the trace's own collective sizes, from first
     * principles (ring all-reduce: 2 (N-1) / N x S each); NaN without a trace.
     */
    double GetChakraExpectedBytesPerWorker() const;

  protected:
    void DoDispose() override;

  private:
    void EnsureLoaded() const;
    void Scale();
    /** A scaled replica: the layers' and buffers' bytes times ByteScale (after Fuse). */
    void ScaleBytes();
    void Fuse(const std::string& source);
    void Unload();

    std::string m_profileFile;
    std::string m_chakraTrace;
    uint32_t m_chakraRanks{0};
    double m_chakraExpectedBytes{0};
    uint64_t m_fusionBufferBytes;
    double m_byteScale{1}; //!< a scaled replica's factor on the model's bytes
    Time m_computeTime;

    ddnn_profile* m_profile{nullptr};
    ddnn_fusion_plan* m_plan{nullptr};
    std::vector<uint64_t> m_forwardNs;
    std::vector<uint64_t> m_backwardNs;
};

} // namespace ns3

#endif /* DNN_MODEL_H */
