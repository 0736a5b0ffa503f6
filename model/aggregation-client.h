/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_CLIENT_H
#define AGGREGATION_CLIENT_H

#include "aggregation-lease.h"
#include "core-timer.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <deque>
#include <string>

struct ddnn_agg_worker;

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A worker's side of in-network aggregation (ddnn-aggregation.h) on a node: each
 * gradient handed to Reduce() is cut into chunks of the lease's slot size and streamed into the
 * switch's slots over UDP, at most one chunk per slot out at once; the switch's result for a
 * chunk frees its slot for the next chunk, and a chunk without a result after a timeout that
 * follows the round trips (ddnn-aggregation.h) is sent again. Results are reported as they arrive.
 *
 * Gradients are reduced one after another. Their chunks are numbered on from one gradient to
 * the next (chunk c of a gradient that follows C earlier chunks is chunk C + c at the switch,
 * in slot (C + c) mod slots), so a late result of an earlier gradient is never taken for one of
 * the current gradient. The round-trip estimate behind the retransmission timeout carries from
 * one gradient to the next; the lease's retransmission time is its floor. Every contribution
 * carries the value worker + 1, so each result should carry N(N + 1) / 2: a result that does not is
 * counted (GetStats().wrongSums).
 */
class AggregationClient : public Object
{
  public:
    static TypeId GetTypeId();
    AggregationClient();
    ~AggregationClient() override;

    /** (result bytes) of a chunk of the gradient in progress, each chunk once. */
    typedef Callback<void, uint64_t> ReceiveCallback;
    void SetReceiveCallback(ReceiveCallback receive);
    /** (what went wrong, one line): the client stops. */
    typedef Callback<void, const std::string&> FailureCallback;
    void SetFailureCallback(FailureCallback failure);

    /**
     * Aggregates at `lease`'s switch as worker `worker` from `node`, receiving the results on
     * UDP port `port` (a DdnnError when it is taken).
     */
    void Setup(Ptr<Node> node, Ptr<const AggregationLease> lease, uint32_t worker, uint16_t port);
    /** Queues a gradient of `bytes` (>= 1). */
    void Reduce(uint64_t bytes);
    /** Sets the ToS of the chunks sent from now on. */
    void SetTos(uint8_t tos);
    /** Stops sending and receiving. */
    void Close();

    /** Totals over every gradient so far. */
    struct Stats
    {
        uint64_t chunks{0};          //!< chunks sent the first time
        uint64_t retransmissions{0}; //!< chunks sent again
        uint64_t results{0};         //!< results received, each chunk once
        uint64_t duplicates{0};      //!< results received again, or of an earlier gradient
        uint64_t bytesSent{0};       //!< payload bytes sent, retransmissions included
        uint64_t bytesReceived{0};   //!< result bytes, each chunk once
        int64_t valueSum{0};         //!< the sum of the results' values, each chunk once
        uint64_t wrongSums{0};       //!< results whose value is not N(N + 1) / 2
        uint32_t maxSlotsInUse{0};   //!< most chunks out at once
    };
    Stats GetStats() const;
    /** Gradients queued and not yet reduced. */
    uint32_t GetPending() const;

    /** (chunk at the switch, retransmission) */
    typedef void (*ChunkTracedCallback)(uint32_t chunk, bool retransmission);

  protected:
    void DoDispose() override;

  private:
    void StartNext();
    void HandleRead(Ptr<Socket> socket);
    /** Calls wake() at `nextNs` (replacing the pending call). */
    void WakeAt(int64_t nextNs);
    void Wake();
    /** The gradient in progress is reduced: the next one starts. */
    void Finish();
    /** False, after reporting the failure, unless rc is DDNN_OK. */
    bool Check(int rc, const char* call);
    void UpdateSlots();
    static int SendChunk(
        void* ctx, uint32_t chunk, uint32_t slot, uint64_t offset, uint32_t length, int again);
    static int Completed(void* ctx);

    Ptr<Node> m_node;
    Ptr<const AggregationLease> m_lease;
    uint32_t m_worker{0};
    Ptr<Socket> m_socket;
    uint8_t m_tos{0};
    ReceiveCallback m_receive;
    FailureCallback m_failure;

    std::deque<uint64_t> m_queue; //!< gradients; the front one is in progress
    ddnn_agg_worker* m_machine{nullptr};
    uint64_t m_base{0};      //!< chunks of the gradients before the current one
    uint32_t m_chunks{0};    //!< chunks of the current one
    bool m_completed{false}; //!< the machine said complete
    int64_t m_srttNs{0};     //!< the round-trip estimate, carried from one gradient on
    int64_t m_rttvarNs{0};
    CoreTimer m_wake;
    Stats m_done;  //!< totals of the gradients already reduced
    Stats m_extra; //!< what the machine does not count (stale results, sums)
    TracedValue<uint32_t> m_slotsInUse;
    TracedCallback<uint32_t, bool> m_chunkSentTrace;
};

} // namespace ns3

#endif /* AGGREGATION_CLIENT_H */
