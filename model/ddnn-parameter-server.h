/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synchronous parameter-server training as a collective: the model is sharded
 * over P parameter servers, either co-located with workers 0..P-1 or, with
 * cfg->dedicated, on P hosts of their own that do not compute (ranks
 * N..N+P-1, server k at rank N+k). For every fusion buffer of S bytes, shard k
 * (k < P) holds floor(S/P) bytes plus one for the first S mod P shards. Each
 * worker pushes its gradients of shard k to server k (step 0; nothing to push
 * to itself); server k, once it holds shard k from every worker, sends the
 * updated shard k back to every worker but itself (step 1, the pull). A worker
 * is done when it holds every updated shard, a dedicated server once it has
 * sent its update.
 *
 * On the stream from worker j to worker r, j's push (if r is a server) is
 * written when the buffer starts, before j can answer as a server, so the
 * receiver tells push from pull bytes by counting alone.
 *
 * Co-located, worker r sends sum over k != r of size(k), plus (N-1) size(r)
 * when r < P: with P = N that is S + (N-2) size(r), ring-allreduce's
 * 2(N-1)/N S when N divides S; with P = 1 the server sends (N-1) S and every
 * other worker S. Dedicated, every worker sends S (its pushes) and receives S
 * (the pulls), and server k receives and sends N size(k): with P = 1, N S
 * each way on the server's link.
 */
#ifndef DDNN_PARAMETER_SERVER_H
#define DDNN_PARAMETER_SERVER_H

#include "ddnn-collective.h"

#ifdef __cplusplus
extern "C"
{
#endif

    /* Registered as "parameter-server" in ddnn-collective.c. */
    extern const ddnn_collective_ops ddnn_parameter_server_ops;

    /* Size of shard k of a buffer of `buffer_bytes` over `servers` servers. */
    uint64_t ddnn_ps_shard_bytes(uint64_t buffer_bytes, uint32_t servers, uint32_t shard);

    /* The rank of the server holding shard k: k co-located, N + k dedicated. */
    uint32_t ddnn_ps_server_rank(const ddnn_collective_config* cfg, uint32_t shard);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_PARAMETER_SERVER_H */
