/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MLCommons Chakra execution traces (ET) as a training job. A trace is a folder of per-rank
 * files <prefix>.<rank>.et (ranks 0..N-1, one prefix); each file is a GlobalMetadata message
 * then Node messages, each preceded by its varint length (the schema ddnn reads:
 * model/ddnn-chakra-et.proto). The ranks' dependency graphs are ordered topologically and
 * mapped to a ddnn_profile: each ALL_REDUCE collective node becomes a layer (its comm_size
 * the layer's gradient bytes, in backward order), the compute nodes it depends on directly its
 * backward time, the other compute nodes forward time (doc/user.rst, "Chakra traces").
 *
 * Sans-I/O: ddnn_chakra_parse_rank takes a file's bytes, ddnn_chakra_join the parsed ranks;
 * ddnn_chakra_read_folder lists and reads a folder through ddnn-file.h.
 */
#ifndef DDNN_CHAKRA_H
#define DDNN_CHAKRA_H

#include "ddnn-error.h"
#include "ddnn-profile.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* Bounds that keep a wrong or hostile file from taking unbounded memory. */
#define DDNN_CHAKRA_MAX_FILE_BYTES    (64u * 1024u * 1024u) /* one rank's file */
#define DDNN_CHAKRA_MAX_MESSAGE_BYTES (1u * 1024u * 1024u)  /* one length-prefixed message */
#define DDNN_CHAKRA_MAX_NODES         100000u               /* nodes of one rank's trace */
#define DDNN_CHAKRA_MAX_DEPS          1600000u              /* dependencies of one rank */
#define DDNN_CHAKRA_MAX_RANKS         250u                  /* a job's workers at most */

    typedef struct ddnn_chakra_rank ddnn_chakra_rank;   /* one rank's parsed trace, opaque */
    typedef struct ddnn_chakra_trace ddnn_chakra_trace; /* the joined job, opaque */

    /*
     * Parses one rank's file (its bytes). Refuses, in diag (field: the Chakra field, message
     * naming the node id and name): a truncated or oversized message, a node type ddnn does
     * not model, a collective other than all-reduce, a missing or zero comm_size, a
     * dependency on an absent node, a duplicate id, a cycle.
     */
    int ddnn_chakra_parse_rank(ddnn_chakra_rank** out,
                               const char* data,
                               size_t len,
                               ddnn_diag* diag);
    void ddnn_chakra_rank_free(ddnn_chakra_rank* r);
    /* The rank's all-reduce nodes, in topological (backward) order. */
    size_t ddnn_chakra_rank_collective_count(const ddnn_chakra_rank* r);
    uint64_t ddnn_chakra_rank_collective_bytes(const ddnn_chakra_rank* r, size_t index);

    /*
     * Joins ranks[0..n) into a job: they must agree on their collectives (count, kind, size,
     * group) in order; rank 0's compute times make the profile. On a disagreement, *first and
     * *second are the ranks at fault (else both are n).
     */
    int ddnn_chakra_join(ddnn_chakra_trace** out,
                         ddnn_chakra_rank* const* ranks,
                         size_t n,
                         size_t* first,
                         size_t* second,
                         ddnn_diag* diag);

    /*
     * Reads a trace folder: every entry must be <prefix>.<rank>.et, one prefix, ranks 0..N-1.
     * On error, file (of file_size bytes) names the file at fault (the folder itself when no
     * one file is), or two files separated by " and ".
     */
    int ddnn_chakra_read_folder(
        ddnn_chakra_trace** out, const char* folder, char* file, size_t file_size, ddnn_diag* diag);

    void ddnn_chakra_trace_free(ddnn_chakra_trace* t);
    uint32_t ddnn_chakra_trace_ranks(const ddnn_chakra_trace* t);
    /* The job's model: one layer per all-reduce (the caller must not free it). */
    const ddnn_profile* ddnn_chakra_trace_profile(const ddnn_chakra_trace* t);
    /* Hands the profile over to the caller (who frees it); the trace keeps no profile. */
    ddnn_profile* ddnn_chakra_trace_take_profile(ddnn_chakra_trace* t);
    /*
     * The bytes a worker sends per iteration by the trace's own sizes, from first principles:
     * a ring all-reduce of S bytes over N ranks sends 2 (N-1) / N x S per rank, summed over
     * the collectives.
     */
    double ddnn_chakra_trace_expected_bytes_per_worker(const ddnn_chakra_trace* t);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_CHAKRA_H */
