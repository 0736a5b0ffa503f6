/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUEUE_DISC_BAND_H
#define QUEUE_DISC_BAND_H

#include "ns3/ptr.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The band a packet sent with \p tos enters in \p disc, or -1 when ddnn cannot see how
 * the disc classifies (every packet is then taken to share one queue).
 *
 * Knows the discs ddnn installs: PfifoFastQueueDisc (its fixed priority-to-band map),
 * PrioQueueDisc and WeightedBandQueueDisc without packet filters (their Priomap). Each takes the
 * priority the sending socket derives from the ToS (SocketPriorityTag).
 */
int QueueDiscBandOf(Ptr<QueueDisc> disc, uint8_t tos);

/**
 * \ingroup ddnn
 * \brief What in \p disc's configuration would drop packets before they queue: a priority its
 * Priomap sends to a band the disc does not have (named by the attribute, as the user set it);
 * "" when there is none or the disc is not one QueueDiscBandOf knows.
 */
std::string QueueDiscBandProblem(Ptr<QueueDisc> disc);

} // namespace ns3

#endif /* QUEUE_DISC_BAND_H */
