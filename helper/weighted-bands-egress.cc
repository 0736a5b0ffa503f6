/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queue.h"

#include "ns3/one-line-error.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/weighted-band-queue-disc.h"

namespace ns3
{

namespace
{

/** One weight per band of PfifoFast's three, each positive. */
std::string
CheckWeights(const EgressQueue& queue)
{
    TypeId::AttributeInformation info;
    WeightedBandQueueDisc::GetTypeId().LookupAttributeByName("QuantumBytes", &info);
    const uint32_t quantum = DynamicCast<const UintegerValue>(info.initialValue)->Get();
    std::vector<double> weights;
    std::string wrong = WeightedBandQueueDisc::ParseWeights(queue.bandWeights, quantum, &weights);
    if (wrong.empty() && weights.size() != 3)
    {
        wrong = "expected 3 weights (bands 0, 1, 2), got '" + queue.bandWeights + "'";
    }
    return wrong;
}

/** PfifoFast's three bands served by weighted deficit round robin (BandWeights), each a FIFO
 * of LimitPackets. */
void
BuildWeightedBands(const EgressQueue& queue, TrafficControlHelper& tch)
{
    if (const std::string wrong = CheckWeights(queue); !wrong.empty())
    {
        throw DdnnError("weighted-bands queue disc: " + wrong);
    }
    const uint16_t root = tch.SetRootQueueDisc(
        "ns3::WeightedBandQueueDisc", "Weights", StringValue(queue.bandWeights));
    queue.AddFifoBands(tch, root, 3);
}

} // namespace

[[maybe_unused]] static const EgressQueue::Kind g_weightedBands
    = EgressQueue::Register({"weighted-bands",
                             "WeightedBands",
                             {0x10, 0x00, 0x08},
                             BuildWeightedBands,
                             CheckWeights,
                             true});

} // namespace ns3
