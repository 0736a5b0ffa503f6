/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In-network aggregation as a collective: each worker hands its whole buffer to the network
 * element the job's workers share (DDNN_PEER_NETWORK: the switch that sums the gradients) and
 * is done when the element has sent the whole sum back, S bytes each way per worker (a ring
 * sends and receives 2(N-1)/N x S). How the bytes travel, slot by slot with retransmissions,
 * is the transport's: the switch's and the workers' state machines are ddnn-aggregation.h.
 * No dedicated servers, no group sends; one step (0) and one chunk (0) per buffer.
 */
#ifndef DDNN_IN_NETWORK_AGGREGATION_H
#define DDNN_IN_NETWORK_AGGREGATION_H

#include "ddnn-collective.h"

#ifdef __cplusplus
extern "C"
{
#endif

    /* Registered as "in-network-aggregation" in ddnn-collective.c. */
    extern const ddnn_collective_ops ddnn_in_network_aggregation_ops;

#ifdef __cplusplus
}
#endif

#endif /* DDNN_IN_NETWORK_AGGREGATION_H */
