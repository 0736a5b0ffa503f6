/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_TEST_STAR_COLLECTIVE_H
#define DDNN_TEST_STAR_COLLECTIVE_H

// A collective defined outside ddnn, with the installed C API only (ns3/ddnn-collective.h):
// the registry suite runs it from scenario files, and test/install-consumer/own-collective.cc
// from a program built against the installed package.
#include "ns3/ddnn-collective.h"

#include <cstdio>
#include <vector>

/**
 * A test-only collective, "test-star": every rank but 0 sends its whole buffer S to rank 0
 * (step 0); rank 0, once it holds the N-1 buffers, sends S back to each of them (step 1). Rank 0
 * sends (N-1) S per buffer, every other rank S.
 */
namespace ns3
{
namespace ddnntest
{
namespace star
{

struct State
{
    ddnn_collective_config cfg;
    ddnn_collective_callbacks cb;
    void* ctx;
    uint64_t bytes{0};                //!< S of the running buffer
    std::vector<uint64_t> fromPeer{}; //!< bytes received from each rank
    uint32_t complete{0};             //!< ranks whose S has fully arrived
    bool active{false};
};

inline uint32_t
Peers(const ddnn_collective_config* cfg, uint32_t* out, uint32_t max)
{
    const uint32_t count = cfg->rank == 0 ? cfg->workers - 1 : 1;
    for (uint32_t i = 0; i < count && i < max; ++i)
    {
        out[i] = cfg->rank == 0 ? i + 1 : 0;
    }
    return count;
}

inline uint64_t
BytesSentBy(const ddnn_collective_config* cfg, uint64_t bufferBytes)
{
    return cfg->rank == 0 ? (cfg->workers - 1) * bufferBytes : bufferBytes;
}

inline uint32_t
SequentialSteps(const ddnn_collective_config*)
{
    return 2;
}

inline int
Create(void** state,
       const ddnn_collective_config* cfg,
       const ddnn_collective_callbacks* cb,
       void* ctx)
{
    if (cfg->rank >= cfg->workers)
    {
        return DDNN_ERR_INVALID;
    }
    *state = new State{*cfg, *cb, ctx};
    return DDNN_OK;
}

inline void
Destroy(void* state)
{
    delete static_cast<State*>(state);
}

inline int
Start(void* state, uint64_t bufferBytes)
{
    auto s = static_cast<State*>(state);
    s->bytes = bufferBytes;
    s->fromPeer.assign(s->cfg.workers, 0);
    s->complete = 0;
    s->active = true;
    return s->cfg.rank == 0 ? DDNN_OK : s->cb.send(s->ctx, 0, 0, 0, bufferBytes);
}

inline int
OnReceived(void* state, uint32_t peer, uint64_t bytes)
{
    auto s = static_cast<State*>(state);
    if (!s->active || s->fromPeer[peer] + bytes > s->bytes)
    {
        return bytes ? DDNN_ERR_STATE : DDNN_OK;
    }
    s->fromPeer[peer] += bytes;
    if (s->fromPeer[peer] < s->bytes)
    {
        return DDNN_OK;
    }
    const uint32_t step = s->cfg.rank == 0 ? 0 : 1;
    if (int rc = s->cb.received ? s->cb.received(s->ctx, peer, step, 0, s->bytes) : DDNN_OK; rc < 0)
    {
        return rc;
    }
    if (++s->complete < (s->cfg.rank == 0 ? s->cfg.workers - 1 : 1))
    {
        return DDNN_OK;
    }
    for (uint32_t r = 1; s->cfg.rank == 0 && r < s->cfg.workers; ++r)
    {
        if (int rc = s->cb.send(s->ctx, r, 1, 0, s->bytes); rc < 0)
        {
            return rc;
        }
    }
    s->active = false; // before done: the syncer may start the next buffer at once
    return s->cb.done(s->ctx);
}

inline int
Active(const void* state)
{
    return static_cast<const State*>(state)->active ? 1 : 0;
}

inline void
Describe(const void* state, char* out, size_t size)
{
    auto s = static_cast<const State*>(state);
    snprintf(out, size, "%u ranks' buffers complete", s->complete);
}

inline const ddnn_collective_ops*
Ops()
{
    static const ddnn_collective_ops ops = [] {
        ddnn_collective_ops o{}; // every member zero, then set by name
        o.name = "test-star";
        o.summary = "every rank sends its buffer to rank 0, which sends it back";
        o.send_peers = &Peers;
        o.receive_peers = &Peers;
        o.bytes_sent_by = &BytesSentBy;
        o.sequential_steps = &SequentialSteps;
        o.create = &Create;
        o.destroy = &Destroy;
        o.start = &Start;
        o.on_received = &OnReceived;
        o.active = &Active;
        o.describe = &Describe;
        return o;
    }();
    return &ops;
}

} // namespace star
} // namespace ddnntest
} // namespace ns3

#endif /* DDNN_TEST_STAR_COLLECTIVE_H */
