/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ring-allreduce: the partition engine of one worker for one fusion buffer, run
 * through the collective interface (ddnn-collective.h) only.
 *
 * N workers, N partitions, 2(N-1) synchronous steps. In step s worker r sends
 * partition (r - s) mod N to its right neighbour and receives partition
 * (r - 1 - s) mod N from its left one; it sends its step-s partition only once
 * the step s-1 partition has fully arrived (step 0 is sent at once). The first
 * N-1 steps reduce (scatter-reduce), the last N-1 spread the reduced
 * partitions (allgather).
 *
 * Partition sizes: a buffer of S bytes splits into N partitions of floor(S/N)
 * bytes, and the first S mod N partitions carry one byte more. Both ends
 * derive these boundaries from S and N alone; the receiver only counts the
 * bytes arriving from its left neighbour.
 *
 * Each partition carries a progress count: the number of transfers its local
 * copy has been through. A partition received in step s has progress s+1. The
 * worker is done when every partition has reached its final progress; then
 * exactly one partition, (r + 2) mod N, holds 2(N-1) and the others step down
 * by one per position around the buffer (thesis Fig. 5.2). The host sees each
 * step complete through the collective's `received` callback (step s, chunk =
 * the partition, from the left neighbour).
 */
#ifndef DDNN_RING_H
#define DDNN_RING_H

#include "ddnn-collective.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    /* The engine as a collective, registered as "ring-allreduce" in ddnn-collective.c: its
     * peers are the two neighbours, its chunks the partitions, its steps the ring's. */
    extern const ddnn_collective_ops ddnn_ring_allreduce_ops;

    /* Bytes worker `rank` sends during one allreduce of the buffer: 2S - size((r+1)%N) -
     * size((r+2)%N) (the table's bytes_sent_by; the ns-3 tests' first-principles figure). */
    uint64_t ddnn_ring_bytes_sent_by(uint64_t buffer_bytes, uint32_t workers, uint32_t rank);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_RING_H */
