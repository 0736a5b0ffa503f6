/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ring-allreduce partition engine of one worker for one fusion buffer.
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
 * by one per position around the buffer (thesis Fig. 5.2).
 */
#ifndef DDNN_RING_H
#define DDNN_RING_H

#include "ddnn-collective.h"
#include "ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct ddnn_ring ddnn_ring; /* opaque */

    typedef struct
    {
        uint32_t workers; /* N >= 2 */
        uint32_t rank;    /* this worker, 0..N-1; its right neighbour is rank+1 mod N */
    } ddnn_ring_config;

    typedef struct
    {
        /*
         * Each returns DDNN_OK or a negative code, which the core call that triggered it
         * returns at once: the event it reported stays recorded, nothing after it happens.
         */
        /* Hand `bytes` of partition `partition` to the transport towards the right neighbour. */
        int (*send)(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes);
        /* The step's partition has fully arrived from the left neighbour (may be NULL). */
        int (*received)(void* ctx, uint32_t step, uint32_t partition, uint64_t bytes);
        /* Every partition has reached its final progress: this worker is done with the buffer. */
        int (*done)(void* ctx);
    } ddnn_ring_callbacks;

    int ddnn_ring_new(ddnn_ring** out,
                      const ddnn_ring_config* cfg,
                      const ddnn_ring_callbacks* cb,
                      void* ctx);
    void ddnn_ring_free(ddnn_ring* r);

    /* Starts the allreduce of a buffer of `buffer_bytes` (>= 1): sends the step-0 partition. */
    int ddnn_ring_start(ddnn_ring* r, uint64_t buffer_bytes);

    /*
     * Counts bytes arriving from the left neighbour, completing steps as their
     * partitions fill up (one call may complete several). More bytes than the
     * buffer's remaining steps expect is DDNN_ERR_STATE.
     */
    int ddnn_ring_on_received(ddnn_ring* r, uint64_t bytes);

    /* Size of partition p of a buffer of `buffer_bytes` split `workers` ways. */
    uint64_t ddnn_ring_partition_bytes(uint64_t buffer_bytes, uint32_t workers, uint32_t partition);
    /* Bytes worker `rank` sends during one allreduce of the buffer: 2S - size((r+1)%N) -
     * size((r+2)%N). */
    uint64_t ddnn_ring_bytes_sent_by(uint64_t buffer_bytes, uint32_t workers, uint32_t rank);

    /* The engine as a collective (registered in ddnn-collective.c): peers are the neighbours,
     * chunks are partitions. */
    extern const ddnn_collective_ops ddnn_ring_allreduce_ops;

    /* State for hosts, traces and diagnoses. */
    int ddnn_ring_active(const ddnn_ring* r);                   /* started and not done */
    uint32_t ddnn_ring_steps(const ddnn_ring* r);               /* 2(N-1) */
    uint32_t ddnn_ring_steps_received(const ddnn_ring* r);      /* complete steps received */
    uint64_t ddnn_ring_step_bytes_received(const ddnn_ring* r); /* bytes of the step in progress */
    uint64_t ddnn_ring_step_bytes_expected(const ddnn_ring* r); /* size of the step in progress */
    uint32_t ddnn_ring_progress(const ddnn_ring* r, uint32_t partition);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_RING_H */
