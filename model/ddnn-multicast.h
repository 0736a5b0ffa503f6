/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A reliable multicast transport, NACK-based, as a sender and a receiver state machine: no
 * sockets, no clock (time is an argument), no timers of its own. The host moves the packets
 * and calls wake() when the time a machine asked for comes.
 *
 * One message of `message_bytes` (a parameter server's updated shard) goes from one sender
 * to `receivers` receivers. It is cut into packets of `packet_bytes` (the last one shorter),
 * numbered 0..P-1; both ends derive the numbering from the configuration alone, so a data
 * packet carries only its sequence number.
 *
 * - The sender multicasts every packet once, paced at `rate_bps` (each packet counted with
 *   `overhead_bytes` of headers). Repairs take precedence over new packets, at the same pace.
 * - A receiver that sees a gap (a packet missing below the highest it has) waits
 *   `nack_delay_ns` for a late, reordered packet, then sends a NACK per missing range (at
 *   most DDNN_MCAST_NACK_RANGES per round) and repeats every `nack_interval_ns` while
 *   packets are missing. With every packet it sends DONE; a data packet after that (the
 *   sender has not heard the DONE) gets DONE again, at most once per `nack_interval_ns`.
 * - The sender queues each NACKed packet once for repair (a multicast repair serves every
 *   receiver that lost it) and repairs a packet at most once per `repair_holdoff_ns`, so
 *   NACKs of several receivers, or a NACK that crossed the repair, cost one repair.
 * - The tail: a receiver that lost the last packets sees no gap. When the sender has
 *   nothing left to send and some receiver has not said DONE for `probe_ns`, it re-sends
 *   the last packet (a probe), which shows those receivers their gap or draws their DONE.
 * - Complete when every receiver said DONE: the sender's `complete` callback, once.
 *
 * Control messages (NACK, DONE) travel unicast to the sender; losing any packet, data or
 * control, delays completion but never prevents it while some packets get through.
 */
#ifndef DDNN_MULTICAST_H
#define DDNN_MULTICAST_H

#include "ddnn-error.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* Most receivers of one sender, and most NACK ranges a receiver sends in one round. */
#define DDNN_MCAST_RECEIVERS_MAX 4096
#define DDNN_MCAST_NACK_RANGES   32
/* Most packets of one message (sequence numbers fit 31 bits). */
#define DDNN_MCAST_PACKETS_MAX   0x7fffffffu
/* wake()'s "no time wanted". */
#define DDNN_MCAST_NEVER         INT64_MAX

    typedef struct
    {
        uint64_t message_bytes;    /* >= 1 */
        uint32_t packet_bytes;     /* payload per packet, 1..65507 (a UDP datagram's most) */
        uint32_t receivers;        /* 1..DDNN_MCAST_RECEIVERS_MAX (the sender's) */
        uint64_t rate_bps;         /* the sender's pace, > 0 */
        uint32_t overhead_bytes;   /* headers per packet, counted in the pace */
        int64_t repair_holdoff_ns; /* >= 0 */
        int64_t probe_ns;          /* > 0 */
        int64_t nack_delay_ns;     /* >= 0 */
        int64_t nack_interval_ns;  /* > 0 */
    } ddnn_mcast_config;

    /*
     * Fills *cfg with the defaults for a message of `message_bytes` to `receivers` at
     * `rate_bps`: 1400-byte packets with 30 bytes of headers (UDP, IPv4, PPP); a NACK delay
     * of 10 packet times, a NACK interval and a probe of 100 packet times, a repair holdoff
     * of 50 packet times.
     */
    void ddnn_mcast_config_init(ddnn_mcast_config* cfg,
                                uint64_t message_bytes,
                                uint32_t receivers,
                                uint64_t rate_bps);
    /* DDNN_OK, or DDNN_ERR_RANGE with *field (when field is not NULL) the name of the first
     * member out of range. */
    int ddnn_mcast_config_check(const ddnn_mcast_config* cfg, const char** field);
    /* Packets of the message, and the payload bytes of packet `seq`. */
    uint32_t ddnn_mcast_packets(const ddnn_mcast_config* cfg);
    uint32_t ddnn_mcast_packet_length(const ddnn_mcast_config* cfg, uint32_t seq);

    /* ---- Sender ---- */

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the call that triggered it returns. */
        /* Multicast payload bytes [offset, offset + length) as packet `seq` (repair: 1 for a
         * repair or a probe). */
        int (*send_data)(void* ctx, uint32_t seq, uint64_t offset, uint32_t length, int repair);
        /* Every receiver has the whole message (once). May be NULL. */
        int (*complete)(void* ctx);
    } ddnn_mcast_sender_callbacks;

    void ddnn_mcast_sender_callbacks_init(ddnn_mcast_sender_callbacks* cb);

    typedef struct
    {
        uint64_t originals; /* packets sent the first time */
        uint64_t repairs;   /* packets sent again for NACKs */
        uint64_t probes;    /* packets sent again for silent receivers */
        uint64_t bytes;     /* payload bytes sent, repairs and probes included */
        uint64_t nacks;     /* NACK ranges received */
        uint32_t receivers_done;
    } ddnn_mcast_sender_stats;

    typedef struct ddnn_mcast_sender ddnn_mcast_sender; /* opaque */

    /* DDNN_ERR_RANGE for a configuration out of range, DDNN_ERR_INVALID for a NULL argument
     * or a missing send_data. */
    int ddnn_mcast_sender_new(ddnn_mcast_sender** out,
                              const ddnn_mcast_config* cfg,
                              const ddnn_mcast_sender_callbacks* cb,
                              void* ctx);
    void ddnn_mcast_sender_free(ddnn_mcast_sender* s);
    /* Starts sending at `now_ns` (once: DDNN_ERR_STATE after). Sends what is due at once and
     * sets *next_ns to when wake() is next wanted (DDNN_MCAST_NEVER: none). */
    int ddnn_mcast_sender_start(ddnn_mcast_sender* s, int64_t now_ns, int64_t* next_ns);
    /* Sends what is due at `now_ns`; *next_ns as for start. */
    int ddnn_mcast_sender_wake(ddnn_mcast_sender* s, int64_t now_ns, int64_t* next_ns);
    /* Receiver `receiver` misses packets [first, first + count): DDNN_ERR_RANGE outside the
     * message or the receivers. *next_ns as for start. */
    int ddnn_mcast_sender_on_nack(ddnn_mcast_sender* s,
                                  int64_t now_ns,
                                  uint32_t receiver,
                                  uint32_t first,
                                  uint32_t count,
                                  int64_t* next_ns);
    /* Receiver `receiver` has everything (repeats are ignored); DDNN_ERR_RANGE for an unknown
     * receiver. *next_ns as for start. */
    int ddnn_mcast_sender_on_done(ddnn_mcast_sender* s,
                                  int64_t now_ns,
                                  uint32_t receiver,
                                  int64_t* next_ns);
    int ddnn_mcast_sender_complete(const ddnn_mcast_sender* s);
    void ddnn_mcast_sender_get_stats(const ddnn_mcast_sender* s, ddnn_mcast_sender_stats* out);

    /* ---- Receiver ---- */

    typedef struct
    {
        /* Each returns DDNN_OK or a negative code, which the call that triggered it returns. */
        /* Ask the sender again for packets [first, first + count). */
        int (*send_nack)(void* ctx, uint32_t first, uint32_t count);
        /* Tell the sender that every packet is here. */
        int (*send_done)(void* ctx);
        /* Every packet is here (once). May be NULL. */
        int (*complete)(void* ctx);
    } ddnn_mcast_receiver_callbacks;

    void ddnn_mcast_receiver_callbacks_init(ddnn_mcast_receiver_callbacks* cb);

    typedef struct
    {
        uint64_t packets;    /* distinct packets received */
        uint64_t bytes;      /* their payload bytes */
        uint64_t duplicates; /* packets received again */
        uint64_t nacks;      /* NACK ranges sent */
    } ddnn_mcast_receiver_stats;

    typedef struct ddnn_mcast_receiver ddnn_mcast_receiver; /* opaque */

    /* As the sender's (the receiver reads neither receivers nor the pace). */
    int ddnn_mcast_receiver_new(ddnn_mcast_receiver** out,
                                const ddnn_mcast_config* cfg,
                                const ddnn_mcast_receiver_callbacks* cb,
                                void* ctx);
    void ddnn_mcast_receiver_free(ddnn_mcast_receiver* r);
    /* Packet `seq` of `length` payload bytes arrived: DDNN_ERR_RANGE when the message has no
     * such packet. *next_ns as for the sender's. */
    int ddnn_mcast_receiver_on_data(
        ddnn_mcast_receiver* r, int64_t now_ns, uint32_t seq, uint32_t length, int64_t* next_ns);
    /* Sends the NACKs due at `now_ns`; *next_ns as for the sender's. */
    int ddnn_mcast_receiver_wake(ddnn_mcast_receiver* r, int64_t now_ns, int64_t* next_ns);
    int ddnn_mcast_receiver_complete(const ddnn_mcast_receiver* r);
    void ddnn_mcast_receiver_get_stats(const ddnn_mcast_receiver* r,
                                       ddnn_mcast_receiver_stats* out);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_MULTICAST_H */
