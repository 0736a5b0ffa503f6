/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-scenario-params.h"

#include "ns3/ddnn-transport-profile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(el, at, fl, ty, unit, def, lo, hi, lo_excl, choices, help, member, sets) \
    { \
        el, at, fl, ty, unit, def, lo, hi, lo_excl, choices, help, \
            offsetof(ddnn_scenario, member), sizeof(((ddnn_scenario*)0)->member), sets \
    }
#define NUM(el, at, fl, ty, unit, def, lo, hi, lo_excl, help, member, sets) \
    PARAM(el, at, fl, ty, unit, def, lo, hi, lo_excl, NULL, help, member, sets)
#define TEXT(el, at, fl, def, choices, help, member, sets) \
    PARAM(el, at, fl, DDNN_PARAM_TEXT, "", def, 0, 0, 0, choices, help, member, sets)

/*
 * In document order (the writer emits elements in this order). Defaults are the thesis's
 * (Tables 5.1 and 5.2). Upper bounds keep every run within what ns-3's signed 64-bit
 * nanoseconds and this machine's memory can hold; the run's total size (flows, bins) is
 * checked by the host from these.
 */
static ddnn_param params[] = {
    NUM("topology",
        "workers",
        "workers",
        DDNN_PARAM_U32,
        "",
        "8",
        2,
        250,
        0,
        "workers of the training job; on a single ToR also its servers",
        workers,
        NULL),
    TEXT("topology",
         "data-rate",
         "dataRate",
         "10Gbps",
         NULL,
         "link rate, e.g. 10Gbps",
         data_rate,
         NULL),
    NUM("topology",
        "delay-us",
        "delayUs",
        DDNN_PARAM_DOUBLE,
        "us",
        "10",
        0,
        1e6,
        0,
        "link propagation delay",
        delay_us,
        NULL),
    NUM("topology",
        "loss-rate",
        "lossRate",
        DDNN_PARAM_DOUBLE,
        "",
        "0",
        0,
        1,
        0,
        "impairment: fraction of the packets an impaired server's link loses, each way",
        loss_rate,
        "ns3::SingleTorHelper::LossRate"),
    NUM("topology",
        "added-delay-us",
        "addedDelayUs",
        DDNN_PARAM_DOUBLE,
        "us",
        "0",
        0,
        1e6,
        0,
        "impairment: propagation delay added to an impaired server's link, each way",
        added_delay_us,
        "ns3::SingleTorHelper::AddedDelay"),
    TEXT("topology",
         "rate-cap",
         "rateCap",
         "",
         NULL,
         "impairment: rate of an impaired server's link when below data-rate, e.g. 1Gbps; "
         "empty: no cap",
         rate_cap,
         NULL),
    TEXT("topology",
         "impaired-servers",
         "impairedServers",
         "",
         NULL,
         "the servers whose links get the impairments, e.g. 0,3; empty: every server",
         impaired_servers,
         "ns3::SingleTorHelper::ImpairedServers"),
    TEXT("topology",
         "queue-disc",
         "queueDisc",
         "pfifo-fast",
         "pfifo-fast|prio-red|prio4|weighted-bands|least-slack|least-slack-hybrid",
         "queue disc on every egress: pfifo-fast (three bands by ToS, no ECN), prio-red (the "
         "same bands, each a RED marking ECN from ecn-threshold-packets on, for DCTCP), prio4 "
         "(four bands: ToS 16, 24, 0, 8 in that order), weighted-bands (pfifo-fast's bands "
         "served by weighted round robin, band-weights), least-slack (the packet whose "
         "deadline leaves it the least slack first: training packets carry their buffer's, "
         "background flows their start plus a budget) or least-slack-hybrid (the background "
         "first until a training packet's slack falls below the disc's Margin)",
         queue_disc,
         NULL),
    TEXT("topology",
         "band-weights",
         "bandWeights",
         "1 1 1",
         NULL,
         "weighted-bands: one positive weight per band (0, 1, 2), blank-separated; with every "
         "band backlogged band i gets weight i / their sum of the link (e.g. 8 1 1: the "
         "training at low priority gets 10 %)",
         band_weights,
         NULL),
    NUM("topology",
        "ecn-threshold-packets",
        "ecnThresholdPackets",
        DDNN_PARAM_U32,
        "packets",
        "65",
        1,
        1e6,
        0,
        "prio-red: queue length from which a band marks ECN (DCTCP's K)",
        ecn_threshold_packets,
        NULL),
    TEXT("topology",
         "kind",
         "topology",
         "single-tor",
         "single-tor|leaf-spine|fat-tree",
         "the network: one rack of `workers` servers, a leaf-spine or a k-ary fat tree (whose "
         "servers the job's workers are placed on, and which all send background flows)",
         topology_kind,
         NULL),
    NUM("topology",
        "leaves",
        "leaves",
        DDNN_PARAM_U32,
        "",
        "2",
        1,
        1000,
        0,
        "leaf-spine: racks",
        leaves,
        "ns3::LeafSpineHelper::Leaves"),
    NUM("topology",
        "servers-per-leaf",
        "serversPerLeaf",
        DDNN_PARAM_U32,
        "",
        "4",
        1,
        1000,
        0,
        "leaf-spine: servers in each rack",
        servers_per_leaf,
        "ns3::LeafSpineHelper::ServersPerLeaf"),
    NUM("topology",
        "spines",
        "spines",
        DDNN_PARAM_U32,
        "",
        "2",
        1,
        1000,
        0,
        "leaf-spine: spine switches, each linked to every leaf",
        spines,
        "ns3::LeafSpineHelper::Spines"),
    NUM("topology",
        "fat-tree-k",
        "fatTreeK",
        DDNN_PARAM_U32,
        "",
        "4",
        2,
        16,
        0,
        "fat-tree: switch radix k, even (k^3/4 servers)",
        fat_tree_k,
        "ns3::FatTreeHelper::K"),
    TEXT("topology",
         "fabric-data-rate",
         "fabricDataRate",
         "",
         NULL,
         "leaf-spine and fat-tree: rate of the switch-to-switch links; empty: data-rate",
         fabric_data_rate,
         NULL),
    NUM("topology",
        "aggregation-memory",
        "aggregationMemory",
        DDNN_PARAM_U64,
        "bytes",
        "1048576",
        1,
        9007199254740992.0,
        0,
        "in-network-aggregation: slot memory of the aggregating switch, shared by the jobs "
        "under it",
        aggregation_memory,
        "ns3::AggregatingSwitch::MemoryBytes"),
    NUM("training",
        "workers",
        "jobWorkers",
        DDNN_PARAM_U32,
        "",
        "0",
        0,
        250,
        0,
        "workers of this job; 0: topology's workers",
        jobs[0].workers,
        NULL),
    TEXT("training",
         "profile",
         "profile",
         "thesis-default-profile.csv",
         NULL,
         "DNN profile CSV (layer,param_bytes,forward_ns,backward_ns)",
         jobs[0].profile,
         "ns3::DnnModel::ProfileFile"),
    NUM("training",
        "fusion-bytes",
        "fusionBytes",
        DDNN_PARAM_U64,
        "bytes",
        "5333329",
        1,
        9007199254740992.0,
        0,
        "largest fusion buffer",
        jobs[0].fusion_bytes,
        "ns3::DnnModel::FusionBufferBytes"),
    NUM("training",
        "compute-ms",
        "computeMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        "0",
        0,
        1e9,
        0,
        "compute time per iteration; 0: from rcp",
        jobs[0].compute_ms,
        NULL),
    NUM("training",
        "rcp",
        "rcp",
        DDNN_PARAM_DOUBLE,
        "",
        "16",
        0,
        1e6,
        0,
        "compute-to-network ratio R_cp_to_nw (thesis eq. 5.1), sets the compute time when "
        "computeMs is 0",
        jobs[0].rcp,
        NULL),
    TEXT("training",
         "queue",
         "queue",
         "fifo",
         "fifo|priority",
         "transmission queue of ready buffers",
         jobs[0].queue,
         "ns3::TrainingJob::QueuePolicy"),
    PARAM("training",
          "barrier",
          "barrier",
          DDNN_PARAM_BOOL,
          "",
          "true",
          0,
          1,
          0,
          NULL,
          "inter-iteration barrier",
          jobs[0].barrier,
          "ns3::TrainingJob::Barrier"),
    TEXT("training",
         "transport",
         "transport",
         "tcp",
         "tcp|ideal",
         "tcp (packets) or ideal (analytic)",
         jobs[0].transport,
         NULL),
    TEXT("training",
         "collective",
         "collective",
         "ring-allreduce",
         "ring-allreduce|parameter-server|in-network-aggregation",
         "how each fusion buffer's gradients are combined: ring-allreduce, parameter servers "
         "(push, then pull), or in-network-aggregation (the switch sums them)",
         jobs[0].collective,
         "ns3::TrainingJob::Collective"),
    NUM("training",
        "parameter-servers",
        "parameterServers",
        DDNN_PARAM_U32,
        "",
        "1",
        1,
        250,
        0,
        "parameter servers of the parameter-server collective: co-located with workers 0..P-1 "
        "(at most the workers), or dedicated hosts",
        jobs[0].parameter_servers,
        "ns3::TrainingJob::ParameterServers"),
    TEXT("training",
         "parameter-server-hosts",
         "parameterServerHosts",
         "co-located",
         "co-located|dedicated",
         "where the parameter servers run: on the first workers, or on P servers of their own "
         "(the job's placement then covers its workers, then its parameter servers)",
         jobs[0].parameter_server_hosts,
         "ns3::TrainingJob::ParameterServerHosts"),
    TEXT("training",
         "distribution",
         "distribution",
         "unicast",
         "unicast|multicast",
         "how the distribution phase reaches the workers: a copy to each, or one multicast of "
         "each updated shard that the switches replicate (dedicated parameter servers)",
         jobs[0].distribution,
         "ns3::TrainingJob::Distribution"),
    TEXT("training",
         "syncer",
         "syncer",
         "instant",
         "instant|network",
         "how the workers sync: instant (the thesis's global syncer, at no cost) or network "
         "(Horovod's coordinator on worker 0, its messages over the network, once a "
         "sync-cycle-us)",
         jobs[0].syncer,
         "ns3::TrainingJob::Syncer"),
    NUM("training",
        "sync-cycle-us",
        "syncCycleUs",
        DDNN_PARAM_DOUBLE,
        "us",
        "1000",
        0,
        1e9,
        1,
        "syncer network: the coordinator's cycle (Horovod's cycle time)",
        jobs[0].sync_cycle_us,
        "ns3::TrainingJob::SyncCycle"),
    TEXT("training",
         "fallback",
         "fallback",
         "ring-allreduce",
         NULL,
         "in-network-aggregation: the collective the job runs when the switch has no slot "
         "memory left for it",
         jobs[0].fallback,
         "ns3::TrainingJob::FallbackCollective"),
    NUM("training",
        "aggregation-slots",
        "aggregationSlots",
        DDNN_PARAM_U32,
        "",
        "64",
        1,
        65536,
        0,
        "in-network-aggregation: the switch's slots for the job, the chunks a worker has out "
        "at once",
        jobs[0].aggregation_slots,
        "ns3::TrainingJob::AggregationSlots"),
    NUM("training",
        "aggregation-slot-bytes",
        "aggregationSlotBytes",
        DDNN_PARAM_U32,
        "bytes",
        "1024",
        1,
        65507,
        0,
        "in-network-aggregation: payload of a slot and of a chunk (a chunk and its headers fit "
        "the MTU)",
        jobs[0].aggregation_slot_bytes,
        "ns3::TrainingJob::AggregationSlotBytes"),
    NUM("training",
        "aggregation-timeout-us",
        "aggregationTimeoutUs",
        DDNN_PARAM_DOUBLE,
        "us",
        "1000",
        10,
        1e9,
        0,
        "in-network-aggregation: the least time a worker waits for a chunk's result before "
        "sending it again (the wait follows the round trips past the first; at least 10 us, "
        "which bounds the resends)",
        jobs[0].aggregation_timeout_us,
        "ns3::TrainingJob::AggregationTimeout"),
    TEXT("training",
         "priority-policy",
         "priorityPolicy",
         "static",
         "static|first-k|mapped|slack-adaptive|oracle",
         "which ToS each fusion buffer's transfers take: static (the training priority), "
         "first-k (high-priority-buffers at ToS 16), mapped (buffer-tos-map), slack-adaptive "
         "(low while the buffer's slack exceeds slack-margin, else ToS 16), oracle (from a "
         "reference run, oracle-reference)",
         jobs[0].priority_policy,
         NULL),
    NUM("training",
        "high-priority-buffers",
        "highPriorityBuffers",
        DDNN_PARAM_U32,
        "",
        "1",
        0,
        1e6,
        0,
        "priority-policy first-k: the fusion buffers holding the lowest layers (needed first by "
        "the next forward pass) that travel at ToS 16 (PfifoFast band 0)",
        jobs[0].high_priority_buffers,
        "ns3::FirstBuffersPriority::Count"),
    TEXT("training",
         "buffer-tos-map",
         "bufferTosMap",
         "",
         NULL,
         "priority-policy mapped: BUFFER=TOS pairs, e.g. 0=8,18=16 (buffer 0 holds the last "
         "layers); other buffers at the training priority",
         jobs[0].buffer_tos_map,
         "ns3::MappedBufferPriority::Map"),
    NUM("training",
        "slack-margin",
        "slackMargin",
        DDNN_PARAM_DOUBLE,
        "",
        "0.05",
        0,
        10,
        0,
        "priority-policy slack-adaptive: a step is raised to ToS 16 when the buffer's slack is "
        "below this fraction of the compute-bound iteration",
        jobs[0].slack_margin,
        "ns3::SlackAdaptivePriority::MarginFraction"),
    NUM("training",
        "slack-hysteresis",
        "slackHysteresis",
        DDNN_PARAM_DOUBLE,
        "",
        "0.02",
        0,
        10,
        0,
        "priority-policy slack-adaptive: how far above the margin (fraction of the iteration) "
        "the slack of a raised buffer must climb before it is lowered again",
        jobs[0].slack_hysteresis,
        "ns3::SlackAdaptivePriority::HysteresisFraction"),
    PARAM("training",
          "slack-learn-rate",
          "slackLearnRate",
          DDNN_PARAM_BOOL,
          "",
          "false",
          0,
          1,
          0,
          NULL,
          "priority-policy slack-adaptive: time the buffers still to come at the rate the raised "
          "collectives achieved, not the links' (raises earlier)",
          jobs[0].slack_learn_rate,
          "ns3::SlackAdaptivePriority::LearnRate"),
    TEXT("training",
         "oracle-reference",
         "oracleReference",
         "",
         NULL,
         "priority-policy oracle: the buffers.csv of a reference run of this job with a priority "
         "policy at low priority; the buffers its next forward pass waited for travel at ToS 16",
         jobs[0].oracle_reference,
         "ns3::OraclePriority::ReferenceFile"),
    TEXT("training",
         "stragglers",
         "stragglers",
         "",
         NULL,
         "ranks of this job's workers that compute straggler-scale times as long, e.g. 0,3; "
         "empty: none",
         jobs[0].stragglers,
         NULL),
    NUM("training",
        "straggler-scale",
        "stragglerScale",
        DDNN_PARAM_DOUBLE,
        "",
        "1.5",
        0,
        1e6,
        1,
        "compute time of a straggler relative to the job's",
        jobs[0].straggler_scale,
        NULL),
    TEXT("training",
         "jitter",
         "jitter",
         "",
         NULL,
         "random relative change j of each worker's compute in each iteration (it computes 1 + j "
         "times as long, at least 0), an ns-3 random variable, e.g. "
         "ns3::NormalRandomVariable[Variance=0.0025]; empty: none",
         jobs[0].jitter,
         NULL),
    TEXT("training",
         "placement",
         "placement",
         "packed",
         NULL,
         "the job's servers: packed (fill a rack first), spread (round-robin over racks), "
         "both skipping earlier jobs' servers, or server indices like 0,5,9",
         jobs[0].placement,
         NULL),
    NUM("training",
        "start-s",
        "startS",
        DDNN_PARAM_DOUBLE,
        "s",
        "0",
        0,
        1e5,
        0,
        "when the job's first iteration starts",
        jobs[0].start_s,
        NULL),
    NUM("training",
        "iterations",
        "iterations",
        DDNN_PARAM_U32,
        "",
        "0",
        0,
        1e6,
        0,
        "iterations to train; 0: until the end of the run",
        jobs[0].iterations,
        "ns3::TrainingJob::Iterations"),
    NUM("training",
        "batch-size",
        "batchSize",
        DDNN_PARAM_U32,
        "samples",
        "0",
        0,
        1e9,
        0,
        "samples each worker trains on per iteration, for samples_per_second in summary.csv; "
        "0: not given (NA)",
        jobs[0].batch_size,
        NULL),
    NUM("training",
        "stall-timeout-ms",
        "stallTimeoutMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        "1000",
        0,
        1e9,
        1,
        "end the run when nothing progresses this long",
        jobs[0].stall_timeout_ms,
        "ns3::TrainingJob::StallTimeout"),
    TEXT("training",
         "band",
         "band",
         "scenario",
         "scenario|0|1|2|3",
         "the egress band of this job's traffic (pfifo-fast and prio-red: 0, 1, 2 by ToS 16, 0, "
         "8; prio4: 0 to 3 by ToS 16, 24, 0, 8); scenario: from <priority training>",
         jobs[0].band,
         NULL),
    NUM("training",
        "stop-s",
        "stopS",
        DDNN_PARAM_DOUBLE,
        "s",
        "0",
        0,
        1e5,
        0,
        "no iteration starts after this time; 0: no limit",
        jobs[0].stop_s,
        "ns3::TrainingJob::StopTime"),
    NUM("training",
        "min-rto-ms",
        "trainingMinRtoMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        "0",
        0,
        1e5,
        0,
        "transport tcp: the job's own TCP minimum retransmission timeout, 0 or at least 0.01 "
        "(a remedy for low priority's spurious timeouts: its segments wait behind the other "
        "tenants longer than the shared minimum); 0: the transport's min-rto-ms",
        jobs[0].min_rto_ms,
        "ns3::TcpPartitionTransport::MinRto"),
    TEXT("background",
         "pattern",
         "backgroundPattern",
         "web-search",
         "web-search|schedule",
         "where the background flows come from: web-search (generated: Poisson arrivals at "
         "flow-rate, sizes from cdf) or schedule (replayed from the schedule file)",
         background_pattern,
         "ns3::BackgroundHelper::Pattern"),
    NUM("background",
        "flow-rate",
        "flowRate",
        DDNN_PARAM_DOUBLE,
        "flows/s per server",
        "23",
        0,
        1e5,
        1,
        "web-search: background flow arrivals",
        flow_rate,
        "ns3::WebSearchPattern::FlowRate"),
    TEXT("background",
         "cdf",
         "cdf",
         "web-search-cdf.csv",
         NULL,
         "web-search: flow-size CDF (bytes,cumulative_fraction)",
         cdf,
         "ns3::WebSearchPattern::CdfFile"),
    TEXT("background",
         "schedule",
         "schedule",
         "",
         NULL,
         "schedule: the flow schedule CSV to replay (flow_id,from,to,size_bytes,start_ns)",
         schedule,
         "ns3::ScheduleReplayPattern::ScheduleFile"),
    TEXT("transport",
         "profile",
         "transportProfile",
         DDNN_TRANSPORT_DEFAULT_PROFILE,
         "tuned|thesis|linux",
         "named set of every value below: tuned (ddnn's), thesis (the thesis's ns-3 code) or "
         "linux (a Linux host's timers and buffers, for the seeds' testbeds); "
         "setting it sets them all, values given after it override",
         transport_profile,
         NULL),
    TEXT("transport",
         "congestion-control",
         "congestionControl",
         NULL, /* ddnn-transport-profile.c */
         "NewReno|Cubic|Dctcp|LinuxReno",
         "TCP congestion control (ns3::Tcp...)",
         congestion_control,
         NULL),
    TEXT("transport",
         "training-congestion-control",
         "trainingCongestionControl",
         NULL, /* ddnn-transport-profile.c */
         "same|NewReno|Cubic|Dctcp|LinuxReno",
         "the training job's own TCP congestion control; same: congestion-control",
         training_congestion_control,
         NULL),
    TEXT("transport",
         "background-congestion-control",
         "backgroundCongestionControl",
         NULL, /* ddnn-transport-profile.c */
         "same|NewReno|Cubic|Dctcp|LinuxReno",
         "the background tenant's own TCP congestion control; same: congestion-control",
         background_congestion_control,
         NULL),
    NUM("transport",
        "segment-size",
        "segmentSize",
        DDNN_PARAM_U32,
        "bytes",
        NULL, /* ddnn-transport-profile.c */
        64,
        65000,
        0,
        "TCP maximum segment size",
        segment_size,
        NULL),
    NUM("transport",
        "socket-buffer-bytes",
        "socketBufferBytes",
        DDNN_PARAM_U32,
        "bytes",
        NULL, /* ddnn-transport-profile.c */
        1024,
        1073741824.0,
        0,
        "TCP send and receive buffer of every socket",
        socket_buffer_bytes,
        NULL),
    NUM("transport",
        "host-band-packets",
        "hostBandPackets",
        DDNN_PARAM_U32,
        "packets",
        NULL, /* ddnn-transport-profile.c */
        0,
        1e6,
        0,
        "the hosts' own queue: packets each band of a server's egress holds (thesis: 100, as "
        "its code's PfifoFast); 0: none of its own, as at the switches",
        host_band_packets,
        NULL),
    NUM("transport",
        "initial-cwnd",
        "initialCwnd",
        DDNN_PARAM_U32,
        "segments",
        NULL, /* ddnn-transport-profile.c */
        1,
        1e6,
        0,
        "TCP initial congestion window (ns-3's default since 3.32; 1 before)",
        initial_cwnd,
        NULL),
    TEXT("transport",
         "loss-recovery",
         "lossRecovery",
         NULL, /* ddnn-transport-profile.c */
         "prr|classic",
         "TCP fast recovery: prr (proportional rate reduction, ns-3's default since 3.32) or "
         "classic (NewReno's window inflation, ns-3's default before)",
         loss_recovery,
         NULL),
    NUM("transport",
        "min-rto-ms",
        "minRtoMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        NULL, /* ddnn-transport-profile.c */
        0.01,
        1e5,
        0,
        "TCP minimum retransmission timeout (at least 10 us, which bounds the timers' events)",
        min_rto_ms,
        NULL),
    NUM("transport",
        "initial-rto-ms",
        "initialRtoMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        NULL, /* ddnn-transport-profile.c */
        0.01,
        1e5,
        0,
        "TCP RTO before the first RTT sample, and the SYN timeout (at least 10 us)",
        initial_rto_ms,
        NULL),
    NUM("transport",
        "clock-granularity-us",
        "clockGranularityUs",
        DDNN_PARAM_DOUBLE,
        "us",
        NULL, /* ddnn-transport-profile.c */
        0,
        1e6,
        1,
        "clock granularity of TCP's RTO",
        clock_granularity_us,
        NULL),
    NUM("transport",
        "del-ack-timeout-us",
        "delAckTimeoutUs",
        DDNN_PARAM_DOUBLE,
        "us",
        NULL, /* ddnn-transport-profile.c */
        0,
        1e9,
        0,
        "longest a TCP receiver delays an ACK",
        del_ack_timeout_us,
        NULL),
    NUM("transport",
        "del-ack-count",
        "delAckCount",
        DDNN_PARAM_U32,
        "segments",
        NULL, /* ddnn-transport-profile.c */
        1,
        100,
        0,
        "segments a TCP receiver waits for before it ACKs",
        del_ack_count,
        NULL),
    NUM("transport",
        "max-seg-lifetime-ms",
        "maxSegLifetimeMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        NULL, /* ddnn-transport-profile.c */
        0,
        1e8,
        1,
        "TCP maximum segment lifetime (TIME_WAIT is twice this)",
        max_seg_lifetime_ms,
        NULL),
    NUM("transport",
        "send-chunk-bytes",
        "sendChunkBytes",
        DDNN_PARAM_U32,
        "bytes",
        NULL, /* ddnn-transport-profile.c */
        1,
        1073741824.0,
        0,
        "most bytes either tenant writes to a socket at once",
        send_chunk_bytes,
        NULL),
    PARAM("transport",
          "background-acks-in-data-band",
          "backgroundAcksInDataBand",
          DDNN_PARAM_BOOL,
          "",
          NULL, /* ddnn-transport-profile.c */
          0,
          1,
          0,
          NULL,
          "background receivers ACK with the flows' ToS (else ToS 0, PfifoFast band 1)",
          background_acks_in_data_band,
          NULL),
    TEXT("priority",
         "training",
         "trainingPriority",
         "low",
         "same|low|high",
         "same (both band 0), low (training band 2) or high (background band 1)",
         training_priority,
         NULL),
    NUM("run",
        "duration-s",
        "durationS",
        DDNN_PARAM_DOUBLE,
        "s",
        "12",
        0,
        1e5,
        1,
        "simulated time",
        duration_s,
        NULL),
    NUM("run",
        "warmup-s",
        "warmupS",
        DDNN_PARAM_DOUBLE,
        "s",
        "2",
        0,
        1e5,
        0,
        "flows starting earlier are not measured",
        warmup_s,
        NULL),
    NUM("run",
        "cooldown-s",
        "cooldownS",
        DDNN_PARAM_DOUBLE,
        "s",
        "2",
        0,
        1e5,
        0,
        "flows starting in the last cooldownS are not measured",
        cooldown_s,
        NULL),
    NUM("run",
        "seed",
        "seed",
        DDNN_PARAM_U32,
        "",
        "1",
        1,
        4294944442.0,
        0,
        "random seed (ns-3's MRG32k3a takes seeds below 4294944443)",
        seed,
        NULL),
    NUM("run",
        "rng-run",
        "RngRun",
        DDNN_PARAM_U64,
        "",
        "1",
        0,
        9007199254740992.0,
        0,
        "ns-3's run number (RngRun): the substream every random variable draws from, so that "
        "runs of one seed differ",
        rng_run,
        NULL),
    NUM("run",
        "min-iterations",
        "minIterations",
        DDNN_PARAM_U32,
        "",
        "3",
        0,
        1000000,
        0,
        "stop before simulating when the measurement window cannot hold this many ideal "
        "iterations of every job; flag fewer measured ones; 0: no check (a run for FCTs only)",
        min_iterations,
        NULL),
    NUM("run",
        "min-flows",
        "minFlows",
        DDNN_PARAM_U32,
        "",
        "10",
        1,
        1000000,
        0,
        "flag a flow size class with fewer completed flows in the window as too few samples",
        min_flows,
        NULL),
    NUM("run",
        "confidence",
        "confidence",
        DDNN_PARAM_DOUBLE,
        "",
        "0.95",
        0,
        0.999,
        1,
        "level of every confidence interval the run reports (ddnn-interval.h's methods)",
        confidence,
        NULL),
    NUM("run",
        "precision",
        "precision",
        DDNN_PARAM_DOUBLE,
        "",
        "0",
        0,
        0.99,
        0,
        "run in stages until the interval's half-width of the iteration time's and the small "
        "flows' mean FCT change (--compare; one run: of their means, relative) is at most this "
        "fraction (0.05: +-5 points), or a cap ends it; 0: one stage of duration-s",
        precision,
        NULL),
    NUM("run",
        "max-cpu-s",
        "maxCpuS",
        DDNN_PARAM_DOUBLE,
        "s",
        "600",
        0,
        1e7,
        1,
        "with a precision: the CPU time every stage together may spend (the next stage's cost "
        "is predicted from the last)",
        max_cpu_s,
        NULL),
    NUM("run",
        "max-duration-s",
        "maxDurationS",
        DDNN_PARAM_DOUBLE,
        "s",
        "100",
        0,
        1e5,
        1,
        "with a precision: the longest simulated duration a stage may take",
        max_duration_s,
        NULL),
    NUM("output",
        "util-interval-ms",
        "utilIntervalMs",
        DDNN_PARAM_DOUBLE,
        "ms",
        "10",
        0.01,
        1e6,
        0,
        "bin of utilization.csv",
        util_interval_ms,
        NULL),
};
#define PARAM_COUNT (sizeof params / sizeof params[0])

/* Sets every transport value of *s to profile `name`'s (ddnn-transport-profile.c). */
static int
apply_transport_profile(ddnn_scenario* s, const char* name)
{
    size_t i;
    if (!ddnn_transport_profile_value(name, "segment-size"))
        return DDNN_ERR_RANGE;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        const ddnn_param* p = &params[i];
        int rc;
        if (strcmp(p->element, "transport") != 0 || strcmp(p->attribute, "profile") == 0)
            continue;
        if ((rc = ddnn_scenario_set_param(
                 s, p, ddnn_transport_profile_value(name, p->attribute), NULL))
            != DDNN_OK)
            return rc;
    }
    return DDNN_OK;
}

const char*
ddnn_param_default(const ddnn_param* p)
{
    return p->default_value
               ? p->default_value
               : ddnn_transport_profile_value(DDNN_TRANSPORT_DEFAULT_PROFILE, p->attribute);
}

/* Choices a host set from its registries (ddnn_scenario_param_set_choices), by parameter. */
static char registered_choices[PARAM_COUNT][DDNN_PARAM_CHOICES_MAX];

static int is_choice(const char* choices, const char* word);

int
ddnn_scenario_param_set_choices(const char* name, const char* choices)
{
    const ddnn_param* p = ddnn_scenario_param_named(name);
    size_t i, len;
    if (p == NULL || p->type != DDNN_PARAM_TEXT || p->choices == NULL || choices == NULL)
    {
        return DDNN_ERR_MISSING;
    }
    len = strlen(choices);
    if (len == 0 || choices[0] == '|' || choices[len - 1] == '|' || strstr(choices, "||"))
    {
        return DDNN_ERR_SYNTAX;
    }
    if (len >= DDNN_PARAM_CHOICES_MAX)
    {
        return DDNN_ERR_TOO_LARGE;
    }
    for (const char* word = choices;; word += i + 1)
    {
        i = strcspn(word, "|");
        if (i >= p->size)
        {
            return DDNN_ERR_TOO_LARGE; /* a choice the value's field cannot hold */
        }
        if (word[i] == '\0')
        {
            break;
        }
    }
    if (!is_choice(choices, ddnn_param_default(p)))
    {
        return DDNN_ERR_RANGE; /* the default must stay a choice */
    }
    i = (size_t)(p - params);
    memcpy(registered_choices[i], choices, len + 1);
    params[i].choices = registered_choices[i];
    return DDNN_OK;
}

size_t
ddnn_scenario_param_count(void)
{
    return PARAM_COUNT;
}

const ddnn_param*
ddnn_scenario_param(size_t i)
{
    return i < PARAM_COUNT ? &params[i] : NULL;
}

const ddnn_param*
ddnn_scenario_param_named(const char* name)
{
    size_t i, n;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        n = strlen(params[i].element);
        if (strncmp(name, params[i].element, n) == 0 && name[n] == '.'
            && strcmp(name + n + 1, params[i].attribute) == 0)
        {
            return &params[i];
        }
    }
    return NULL;
}

const ddnn_param*
ddnn_scenario_param_by_flag(const char* flag)
{
    size_t i;
    for (i = 0; i < PARAM_COUNT; i++)
    {
        if (strcmp(flag, params[i].flag) == 0)
        {
            return &params[i];
        }
    }
    return NULL;
}

/* Whether `word` is one of the '|'-separated choices. */
static int
is_choice(const char* choices, const char* word)
{
    size_t n = strlen(word);
    const char* at = choices;
    while (at && *at)
    {
        const char* bar = strchr(at, '|');
        size_t len = bar ? (size_t)(bar - at) : strlen(at);
        if (len == n && strncmp(at, word, n) == 0)
        {
            return 1;
        }
        at = bar ? bar + 1 : NULL;
    }
    return 0;
}

void
ddnn_param_describe(const ddnn_param* p, char* out, size_t out_size)
{
    char unit[48] = "";
    if (p->unit[0])
    {
        snprintf(unit, sizeof unit, " (%s)", p->unit);
    }
    switch (p->type)
    {
        case DDNN_PARAM_U32:
        case DDNN_PARAM_U64:
            snprintf(out, out_size, "a whole number in [%.0f, %.0f]%s", p->min, p->max, unit);
            return;
        case DDNN_PARAM_DOUBLE:
            snprintf(out,
                     out_size,
                     "a number in %c%g, %g]%s",
                     p->min_exclusive ? '(' : '[',
                     p->min,
                     p->max,
                     unit);
            return;
        case DDNN_PARAM_BOOL:
            snprintf(out, out_size, "true or false");
            return;
        case DDNN_PARAM_TEXT:
            if (p->choices)
            {
                char list[96];
                size_t i, j = 0;
                for (i = 0; p->choices[i] && j + 5 < sizeof list; i++)
                {
                    if (p->choices[i] == '|')
                    {
                        j += (size_t)snprintf(list + j, sizeof list - j, ", ");
                    }
                    else
                    {
                        list[j++] = p->choices[i];
                    }
                }
                list[j] = '\0';
                snprintf(out, out_size, "one of %s", list);
            }
            else
            {
                snprintf(out, out_size, "text of at most %zu characters", p->size - 1);
            }
            return;
    }
    snprintf(out, out_size, "a value");
}

/* Whether `text` is a decimal number as the documentation writes them: digits, a sign, a
 * point and an exponent; no hexadecimal ("0x10", "0x1p4"), no "inf" or "nan". */
static int
is_decimal(const char* text)
{
    size_t i;
    for (i = 0; text[i]; i++)
    {
        if (!isdigit((unsigned char)text[i]) && !strchr("+-.eE", text[i]))
        {
            return 0;
        }
    }
    return i > 0;
}

/* Nanoseconds per unit of a time parameter, 0 for the others. */
static double
ns_per_unit(const ddnn_param* p)
{
    if (strcmp(p->unit, "s") == 0)
    {
        return 1e9;
    }
    if (strcmp(p->unit, "ms") == 0)
    {
        return 1e6;
    }
    if (strcmp(p->unit, "us") == 0)
    {
        return 1e3;
    }
    return 0;
}

/* Whether `text` is valid UTF-8 without control characters: what an XML attribute can carry
 * (and a one-line message can echo). */
static int
is_clean_text(const char* text)
{
    const unsigned char* u = (const unsigned char*)text;
    while (*u)
    {
        static const unsigned long least[4] = {0, 0xa0, 0x800, 0x10000}; /* no overlong form */
        int more, i;
        unsigned long code;
        if (*u < 0x80)
        {
            if (*u < 0x20 || *u == 0x7f)
            {
                return 0;
            }
            u++;
            continue;
        }
        more = (*u & 0xe0) == 0xc0 ? 1 : (*u & 0xf0) == 0xe0 ? 2 : (*u & 0xf8) == 0xf0 ? 3 : 0;
        if (more == 0)
        {
            return 0;
        }
        code = *u & (0x3f >> more);
        for (i = 1; i <= more; i++)
        {
            if ((u[i] & 0xc0) != 0x80)
            {
                return 0;
            }
            code = code << 6 | (u[i] & 0x3f);
        }
        /* C1 controls (below U+00A0), surrogates, beyond U+10FFFF */
        if (code < least[more] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
        {
            return 0;
        }
        u += more + 1;
    }
    return 1;
}

/* `text` as it may be echoed in a one-line message: at most about 60 bytes, cut between
 * characters, control characters (a newline would split the line) and the bytes of text
 * that is not UTF-8 as '?'. */
static void
printable(const char* text, char* out, size_t out_size)
{
    const int clean = is_clean_text(text);
    size_t i;
    for (i = 0; text[i] && i + 4 < out_size && (i < 60 || (text[i] & 0xc0) == 0x80); i++)
    {
        const unsigned char c = (unsigned char)text[i];
        out[i] = c < 0x20 || c == 0x7f || (c >= 0x80 && !clean) ? '?' : text[i];
    }
    snprintf(out + i, out_size - i, "%s", text[i] ? "..." : "");
}

/* Fills diag with "expected DESCRIPTION, got 'TEXT'" (and `why`, when not empty) and returns
 * code. */
static int
rejected_because(const ddnn_param* p, int code, const char* text, const char* why, ddnn_diag* diag)
{
    char expected[160];
    char shown[72];
    ddnn_param_describe(p, expected, sizeof expected);
    printable(text, shown, sizeof shown);
    return ddnn_diag_set(
        diag, code, 0, p->attribute, "expected %s, got '%s'%s", expected, shown, why);
}

static int
rejected(const ddnn_param* p, int code, const char* text, ddnn_diag* diag)
{
    return rejected_because(p, code, text, "", diag);
}

static int
in_range(const ddnn_param* p, double v)
{
    return (p->min_exclusive ? v > p->min : v >= p->min) && v <= p->max;
}

int
ddnn_param_is_per_job(const ddnn_param* p)
{
    return strcmp(p->element, "training") == 0;
}

/* Where parameter p of job `job` (0-based; ignored for the other elements) lives in *s. */
static size_t
offset_of(const ddnn_param* p, uint32_t job)
{
    return p->offset + (ddnn_param_is_per_job(p) ? job * sizeof(ddnn_scenario_job) : 0);
}

int
ddnn_scenario_set_param(ddnn_scenario* s, const ddnn_param* p, const char* text, ddnn_diag* diag)
{
    return ddnn_scenario_set_job_param(s, p, 0, text, diag);
}

int
ddnn_scenario_set_job_param(
    ddnn_scenario* s, const ddnn_param* p, uint32_t job, const char* text, ddnn_diag* diag)
{
    void* at;
    if (job >= DDNN_SCENARIO_MAX_JOBS)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             p->attribute,
                             "job %u: at most %d training jobs",
                             job + 1,
                             DDNN_SCENARIO_MAX_JOBS);
    }
    at = (char*)s + offset_of(p, job);
    char* end = NULL;
    switch (p->type)
    {
        case DDNN_PARAM_U32:
        case DDNN_PARAM_U64: {
            unsigned long long v;
            size_t i;
            /* Digits only: strtoull would take "-1" as 2^64 - 1. */
            for (i = 0; text[i]; i++)
            {
                if (!isdigit((unsigned char)text[i]))
                {
                    return rejected(p, DDNN_ERR_SYNTAX, text, diag);
                }
            }
            if (i == 0)
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            errno = 0;
            v = strtoull(text, &end, 10);
            /* Compared as integers: through a double, 2^53 + 1 would pass a limit of 2^53. */
            if (errno == ERANGE || v < (unsigned long long)p->min || v > (unsigned long long)p->max)
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            if (p->type == DDNN_PARAM_U32)
            {
                *(uint32_t*)at = (uint32_t)v;
            }
            else
            {
                *(uint64_t*)at = (uint64_t)v;
            }
            return DDNN_OK;
        }
        case DDNN_PARAM_DOUBLE: {
            double v;
            if (!is_decimal(text))
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            errno = 0;
            v = strtod(text, &end);
            if (end == text || *end || !isfinite(v))
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            if (!in_range(p, v))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            /* A positive time below ns-3's step would become 0 ns: refused or 0 means else. */
            if (v > 0 && ns_per_unit(p) > 0 && v * ns_per_unit(p) < 1)
            {
                return rejected_because(p, DDNN_ERR_RANGE, text, ", below 1 ns", diag);
            }
            *(double*)at = v;
            return DDNN_OK;
        }
        case DDNN_PARAM_BOOL:
            if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
            {
                *(int*)at = 1;
            }
            else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
            {
                *(int*)at = 0;
            }
            else
            {
                return rejected(p, DDNN_ERR_SYNTAX, text, diag);
            }
            return DDNN_OK;
        case DDNN_PARAM_TEXT:
            if (strlen(text) >= p->size)
            {
                return rejected(p, DDNN_ERR_TOO_LARGE, text, diag);
            }
            if (!is_clean_text(text))
            {
                return rejected_because(p,
                                        DDNN_ERR_SYNTAX,
                                        text,
                                        ", which holds a control character or is not UTF-8",
                                        diag);
            }
            if (p->choices && !is_choice(p->choices, text))
            {
                return rejected(p, DDNN_ERR_RANGE, text, diag);
            }
            memcpy(at, text, strlen(text) + 1);
            if (at == (void*)s->transport_profile)
            {
                return apply_transport_profile(s, text);
            }
            return DDNN_OK;
    }
    return ddnn_diag_set(diag, DDNN_ERR_INVALID, 0, p->attribute, "unknown parameter type");
}

int
ddnn_scenario_format_param(const ddnn_scenario* s, const ddnn_param* p, char* out, size_t out_size)
{
    return ddnn_scenario_format_job_param(s, p, 0, out, out_size);
}

int
ddnn_scenario_format_job_param(
    const ddnn_scenario* s, const ddnn_param* p, uint32_t job, char* out, size_t out_size)
{
    const void* at;
    if (job >= DDNN_SCENARIO_MAX_JOBS)
    {
        return DDNN_ERR_RANGE;
    }
    at = (const char*)s + offset_of(p, job);
    int n = 0;
    switch (p->type)
    {
        case DDNN_PARAM_U32:
            n = snprintf(out, out_size, "%u", (unsigned)*(const uint32_t*)at);
            break;
        case DDNN_PARAM_U64:
            n = snprintf(out, out_size, "%llu", (unsigned long long)*(const uint64_t*)at);
            break;
        case DDNN_PARAM_DOUBLE:
            n = snprintf(out, out_size, "%.17g", *(const double*)at); /* round-trips exactly */
            break;
        case DDNN_PARAM_BOOL:
            n = snprintf(out, out_size, "%s", *(const int*)at ? "true" : "false");
            break;
        case DDNN_PARAM_TEXT:
            n = snprintf(out, out_size, "%s", (const char*)at);
            break;
    }
    return n >= 0 && (size_t)n < out_size ? DDNN_OK : DDNN_ERR_TOO_LARGE;
}

int
ddnn_scenario_check(const ddnn_scenario* s, const ddnn_param** bad, ddnn_diag* diag)
{
    size_t i;
    uint32_t job;
    if (s->job_count < 1 || s->job_count > DDNN_SCENARIO_MAX_JOBS)
    {
        if (bad)
        {
            *bad = ddnn_scenario_param_named("training.workers");
        }
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             0,
                             "training",
                             "expected 1 to %d training jobs, got %u",
                             DDNN_SCENARIO_MAX_JOBS,
                             s->job_count);
    }
    for (i = 0; i < PARAM_COUNT; i++)
    {
        const ddnn_param* p = &params[i];
        for (job = 0; job < (ddnn_param_is_per_job(p) ? s->job_count : 1); job++)
        {
            char text[DDNN_PATH_MAX + 32];
            ddnn_scenario copy = *s;
            int rc = ddnn_scenario_format_job_param(s, p, job, text, sizeof text);
            if (rc == DDNN_OK)
            {
                rc = ddnn_scenario_set_job_param(&copy, p, job, text, diag);
            }
            else
            {
                rc = ddnn_diag_set(diag, rc, 0, p->attribute, "value too long");
            }
            if (rc != DDNN_OK)
            {
                if (bad)
                {
                    *bad = p;
                }
                if (job > 0 && diag)
                {
                    /* "job K: " before the message, which keeps what fits */
                    char prefix[24];
                    size_t k = (size_t)snprintf(prefix, sizeof prefix, "job %u: ", job + 1);
                    size_t n = strlen(diag->message);
                    if (n + k >= sizeof diag->message)
                    {
                        n = sizeof diag->message - k - 1;
                    }
                    memmove(diag->message + k, diag->message, n);
                    memcpy(diag->message, prefix, k);
                    diag->message[k + n] = '\0';
                }
                return rc;
            }
        }
    }
    return DDNN_OK;
}

void
ddnn_scenario_defaults(ddnn_scenario* s)
{
    size_t i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < PARAM_COUNT; i++)
    {
        /* The table's defaults are in range by construction (unit-tested). */
        (void)ddnn_scenario_set_param(s, &params[i], ddnn_param_default(&params[i]), NULL);
    }
    s->job_count = 1;
}

int
ddnn_scenario_param_address(const char* name, const ddnn_param** p, uint32_t* job)
{
    const char* open = strchr(name, '[');
    const char* dot = strchr(name, '.');
    char plain[128];
    *job = 0;
    if (open && dot && open < dot)
    {
        /* "training[K].attribute", K from 1 */
        char* end = NULL;
        unsigned long k;
        if (!isdigit((unsigned char)open[1]))
        {
            return DDNN_ERR_MISSING;
        }
        k = strtoul(open + 1, &end, 10);
        if (*end != ']' || end + 1 != dot || (size_t)(open - name) >= sizeof plain)
        {
            return DDNN_ERR_MISSING;
        }
        snprintf(plain, sizeof plain, "%.*s%s", (int)(open - name), name, dot);
        *p = ddnn_scenario_param_named(plain);
        if (!*p || !ddnn_param_is_per_job(*p))
        {
            return DDNN_ERR_MISSING;
        }
        if (k < 1 || k > DDNN_SCENARIO_MAX_JOBS)
        {
            return DDNN_ERR_RANGE;
        }
        *job = (uint32_t)(k - 1);
        return DDNN_OK;
    }
    *p = ddnn_scenario_param_named(name);
    return *p ? DDNN_OK : DDNN_ERR_MISSING;
}

const char*
ddnn_arg_value(const char* arg, const char* flag)
{
    size_t n = strlen(flag);
    if (arg[0] != '-')
    {
        return NULL;
    }
    while (*arg == '-')
    {
        arg++;
    }
    return strncmp(arg, flag, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* Sets parameter p from the last argument that gives it, if any. */
static int
apply_arg(ddnn_scenario* s, const ddnn_param* p, int argc, const char* const* argv, ddnn_diag* diag)
{
    int i;
    for (i = argc - 1; i > 0; i--)
    {
        const char* value = ddnn_arg_value(argv[i], p->flag);
        if (value)
        {
            return ddnn_scenario_set_param(s, p, value, diag);
        }
    }
    return DDNN_OK;
}

int
ddnn_scenario_apply_args(ddnn_scenario* s,
                         int argc,
                         const char* const* argv,
                         int (*accept)(const ddnn_param* p, void* ctx),
                         void* ctx,
                         const ddnn_param** bad,
                         ddnn_diag* diag)
{
    size_t i, pass;
    for (pass = 0; pass < 2; pass++)
    {
        for (i = 0; i < PARAM_COUNT; i++)
        {
            const ddnn_param* p = &params[i];
            int rc;
            /* The transport profile in the first pass, the others in the second. */
            if ((p->offset == offsetof(ddnn_scenario, transport_profile)) != (pass == 0)
                || (accept && !accept(p, ctx)))
            {
                continue;
            }
            if ((rc = apply_arg(s, p, argc, argv, diag)) != DDNN_OK)
            {
                if (bad)
                {
                    *bad = p;
                }
                return rc;
            }
        }
    }
    return DDNN_OK;
}

int
ddnn_scenario_set(ddnn_scenario* s, const char* name, const char* text)
{
    const ddnn_param* p;
    uint32_t job;
    int rc = ddnn_scenario_param_address(name, &p, &job);
    if (rc != DDNN_OK)
    {
        return rc;
    }
    if (job >= s->job_count)
    {
        return DDNN_ERR_RANGE;
    }
    return ddnn_scenario_set_job_param(s, p, job, text, NULL);
}

int
ddnn_scenario_set_ns3_default(ddnn_scenario* s,
                              const char* name,
                              const char* value,
                              ddnn_diag* diag)
{
    uint32_t i;
    char shown[72];
    printable(name, shown, sizeof shown);
    if (strncmp(name, "ns3::", 5) != 0 || !strstr(name + 5, "::") || !is_clean_text(name)
        || strlen(name) >= sizeof s->ns3_defaults[0].name)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             0,
                             "name",
                             "expected an ns-3 attribute such as ns3::TcpSocket::SegmentSize "
                             "(at most %zu characters), got '%s'",
                             sizeof s->ns3_defaults[0].name - 1,
                             shown);
    }
    if (!is_clean_text(value) || strlen(value) >= sizeof s->ns3_defaults[0].value)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_SYNTAX,
                             0,
                             "value",
                             "%s: expected text of at most %zu characters without control "
                             "characters",
                             shown,
                             sizeof s->ns3_defaults[0].value - 1);
    }
    for (i = 0; i < s->ns3_default_count && strcmp(s->ns3_defaults[i].name, name) != 0; i++)
    {
    }
    if (i == DDNN_SCENARIO_MAX_NS3_DEFAULTS)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_TOO_LARGE,
                             0,
                             "name",
                             "%s: more than %d ns-3 attribute defaults",
                             shown,
                             DDNN_SCENARIO_MAX_NS3_DEFAULTS);
    }
    snprintf(s->ns3_defaults[i].name, sizeof s->ns3_defaults[i].name, "%s", name);
    snprintf(s->ns3_defaults[i].value, sizeof s->ns3_defaults[i].value, "%s", value);
    s->ns3_default_count += i == s->ns3_default_count;
    return DDNN_OK;
}
