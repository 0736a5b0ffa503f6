/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "queue-disc-band.h"

#include "weighted-band-queue-disc.h"

#include "ns3/log.h"
#include "ns3/pfifo-fast-queue-disc.h"
#include "ns3/prio-queue-disc.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QueueDiscBand");

namespace
{

/** The Priomap band of `priority` (0-15) in a disc classified by it, or -1 for another disc. */
int
PriomapBand(Ptr<QueueDisc> disc, uint8_t priority)
{
    if (Ptr<PrioQueueDisc> prio = DynamicCast<PrioQueueDisc>(disc);
        prio && prio->GetNPacketFilters() == 0)
    {
        return prio->GetBandForPriority(priority);
    }
    if (Ptr<WeightedBandQueueDisc> weighted = DynamicCast<WeightedBandQueueDisc>(disc);
        weighted && weighted->GetNPacketFilters() == 0)
    {
        return weighted->GetBandForPriority(priority);
    }
    return -1;
}

} // namespace

int
QueueDiscBandOf(Ptr<QueueDisc> disc, uint8_t tos)
{
    const uint8_t priority = Socket::IpTos2Priority(tos);
    if (DynamicCast<PfifoFastQueueDisc>(disc))
    {
        // PfifoFastQueueDisc::prio2band (private there), as documented in ns-3.
        static const int prio2band[16] = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
        return prio2band[priority & 0x0f];
    }
    return PriomapBand(disc, priority & 0x0f);
}

std::string
QueueDiscBandProblem(Ptr<QueueDisc> disc)
{
    const size_t bands = disc->GetNQueueDiscClasses();
    for (uint8_t priority = 0; priority < 16 && bands > 0; ++priority)
    {
        const int band = PriomapBand(disc, priority);
        if (band >= 0 && static_cast<size_t>(band) >= bands)
        {
            NS_LOG_DEBUG("priority " << +priority << " to band " << band << " of " << bands);
            return disc->GetInstanceTypeId().GetName() + "::Priomap: priority "
                   + std::to_string(priority) + " goes to band " + std::to_string(band)
                   + ", which the queue disc lacks (bands 0 to " + std::to_string(bands - 1)
                   + "): its packets would all be dropped";
        }
    }
    return "";
}

} // namespace ns3
