/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files of scenarios and campaigns (XML, validated against data/ddnn-scenario.xsd
 * with libxml2). A scenario describes one run: topology, training tenant,
 * background tenant, priority, duration and measurement window, seed and
 * outputs. A campaign is a base scenario plus <vary parameter="element.attribute"
 * values="v1 v2 ..."/> dimensions whose product is the grid of runs.
 *
 * Parsing is safe: no network access, no DTD (internal or external, so no
 * entity expansion and no external entities), at most DDNN_SCENARIO_MAX_BYTES and
 * DDNN_SCENARIO_MAX_ATTRIBUTES (the XML parser's work grows with their square).
 * Values are stored as written; paths are resolved by the host.
 */
#ifndef DDNN_SCENARIO_H
#define DDNN_SCENARIO_H

#include "ns3/ddnn-error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

#define DDNN_SCENARIO_MAX_BYTES        (1024 * 1024)
/* Attributes in one document: a scenario has about 25, a campaign a few more. */
#define DDNN_SCENARIO_MAX_ATTRIBUTES   1000
/* Runs in one campaign grid: a bound on the expansion itself (runners set a lower one). */
#define DDNN_CAMPAIGN_MAX_RUNS         100000000
#define DDNN_PATH_MAX                  1024
/* Training jobs in one scenario. */
#define DDNN_SCENARIO_MAX_JOBS         8
/* ns-3 attribute defaults (--ns3::Type::Attribute=V) one scenario records. */
#define DDNN_SCENARIO_MAX_NS3_DEFAULTS 16

    /* An ns-3 attribute default a run set (<ns3-default name="ns3::T::A" value="V"/>). */
    typedef struct
    {
        char name[128];
        char value[256];
    } ddnn_ns3_default;

    /* One training job: a <training> element. */
    typedef struct
    {
        uint32_t workers; /* 0: the topology's workers */
        char profile[DDNN_PATH_MAX];
        uint64_t fusion_bytes;
        double compute_ms; /* 0: from rcp */
        double rcp;        /* 0: from compute_ms */
        char queue[16];
        int barrier;
        char transport[16];
        char collective[32];
        uint32_t parameter_servers;      /* parameter-server collective: P >= 1 */
        char parameter_server_hosts[16]; /* co-located | dedicated */
        char distribution[16];           /* unicast | multicast */
        char syncer[16];                 /* instant | network */
        double sync_cycle_us;            /* network: the coordinator's cycle */
        char fallback[32];               /* in-network-aggregation: when the switch is full */
        uint32_t aggregation_slots;      /* in-network-aggregation: the job's pool */
        uint32_t aggregation_slot_bytes;
        double aggregation_timeout_us;        /* a chunk's retransmission */
        char priority_policy[32];             /* a registered BufferPriorityPolicy */
        uint32_t high_priority_buffers;       /* first-k: buffers at ToS 0x10 */
        char buffer_tos_map[256];             /* mapped: "BUFFER=TOS,..." */
        double slack_margin;                  /* slack-adaptive: fraction of the iteration */
        double slack_hysteresis;              /* slack-adaptive: fraction of the iteration */
        int slack_learn_rate;                 /* slack-adaptive: time the backlog as achieved */
        char oracle_reference[DDNN_PATH_MAX]; /* oracle: a reference run's buffers.csv */
        char stragglers[256];                 /* ranks, "0,3"; empty: none */
        double straggler_scale;               /* their compute time relative to the job's */
        char jitter[256];     /* an ns-3 random variable: relative compute change per iteration */
        char placement[1024]; /* packed | spread | "0,5,9" */
        double start_s;       /* when the job's first iteration starts */
        uint32_t iterations;  /* 0: until the end of the run */
        uint32_t batch_size;  /* samples per worker per iteration, for samples_per_second */
        double stall_timeout_ms;
        char band[16]; /* scenario (the ToS of <priority training>) | 0..3 (the egress queue's) */
        double stop_s; /* no iteration starts later; 0: no limit */
        double min_rto_ms; /* tcp: the job's own TCP minimum RTO; 0: <transport min-rto-ms> */
    } ddnn_scenario_job;

    typedef struct
    {
        /* <topology> */
        uint32_t workers;
        char data_rate[32];
        double delay_us;
        double loss_rate;               /* impairments, on the impaired servers' links: */
        double added_delay_us;          /* each way */
        char rate_cap[32];              /* empty: none */
        char impaired_servers[1024];    /* "0,3"; empty: every server */
        char queue_disc[32];            /* a registered egress: pfifo-fast | prio-red | ... */
        char band_weights[64];          /* weighted-bands: a weight per band */
        uint32_t ecn_threshold_packets; /* prio-red: DCTCP's K */
        char topology_kind[16];         /* single-tor | leaf-spine | fat-tree */
        uint32_t leaves;                /* leaf-spine */
        uint32_t servers_per_leaf;
        uint32_t spines;
        uint32_t fat_tree_k;         /* fat-tree */
        char fabric_data_rate[32];   /* switch-to-switch; empty: data_rate */
        uint64_t aggregation_memory; /* in-network-aggregation: the switch's slot memory */
        /* <training>, once per job in document order: values a job leaves out are the first
         * job's. Parameters named "training.X" are the first job's, "training[K].X" job K's. */
        uint32_t job_count; /* 1..DDNN_SCENARIO_MAX_JOBS */
        ddnn_scenario_job jobs[DDNN_SCENARIO_MAX_JOBS];
        /* <background> */
        char background_pattern[32]; /* a registered BackgroundPattern: web-search | schedule */
        double flow_rate;
        char cdf[DDNN_PATH_MAX];
        char schedule[DDNN_PATH_MAX]; /* the schedule pattern's file */
        /* <transport>: TCP and how both tenants use it (see ddnn_transport_profiles) */
        char transport_profile[16];
        char congestion_control[16];
        char training_congestion_control[16];   /* same: congestion_control */
        char background_congestion_control[16]; /* same: congestion_control */
        uint32_t segment_size;
        uint32_t socket_buffer_bytes;
        uint32_t host_band_packets; /* each band of a server's egress; 0: none of its own */
        uint32_t initial_cwnd;      /* segments */
        char loss_recovery[16];     /* prr | classic */
        double min_rto_ms;
        double initial_rto_ms;
        double clock_granularity_us;
        double del_ack_timeout_us;
        uint32_t del_ack_count;
        double max_seg_lifetime_ms;
        uint32_t send_chunk_bytes;
        int background_acks_in_data_band;
        /* <priority> */
        char training_priority[8];
        /* <run> */
        double duration_s;
        double warmup_s;
        double cooldown_s;
        uint32_t seed;
        uint64_t rng_run;        /* ns-3's run number (RngRun): the substream of every variable */
        uint32_t min_iterations; /* the window must hold this many ideal iterations; 0: no check */
        uint32_t min_flows;      /* fewer completed flows in a class: flagged */
        double confidence;       /* level of every interval the run reports */
        double precision;        /* target half-width of the run's changes (0: one stage) */
        double max_cpu_s;        /* with a precision: the CPU time the stages may spend */
        double max_duration_s;   /* with a precision: the longest duration a stage may take */
        /* <output> */
        double util_interval_ms;
        /* <ns3-default>, in document order; a name at most once */
        uint32_t ns3_default_count;
        ddnn_ns3_default ns3_defaults[DDNN_SCENARIO_MAX_NS3_DEFAULTS];
    } ddnn_scenario;

    /* The thesis defaults (Tables 5.1 and 5.2) for every value a file may leave out. */
    void ddnn_scenario_defaults(ddnn_scenario* s);

    /*
     * Reads a scenario file, validating it against the schema at schema_path.
     * Values the file leaves out keep what *s held. diag names the line and the
     * element or attribute at fault.
     */
    int ddnn_scenario_read_file(ddnn_scenario* s,
                                const char* path,
                                const char* schema_path,
                                ddnn_diag* diag);
    int ddnn_scenario_parse(
        ddnn_scenario* s, const char* text, size_t len, const char* schema_path, ddnn_diag* diag);

    /*
     * Sets one value by its name "element.attribute" (e.g. "training.rcp") from
     * text. Returns DDNN_ERR_MISSING for an unknown name, DDNN_ERR_SYNTAX for text
     * that is not of the value's type. Ranges are checked by the schema.
     */
    int ddnn_scenario_set(ddnn_scenario* s, const char* name, const char* text);

    /*
     * Adds (or, for a name it has, replaces) an ns-3 attribute default: name "ns3::T::A" and
     * value as clean UTF-8 text without control characters, each within its field.
     */
    int ddnn_scenario_set_ns3_default(ddnn_scenario* s,
                                      const char* name,
                                      const char* value,
                                      ddnn_diag* diag);

    /* Writes the complete scenario (every value) as XML into a malloc'ed, NUL-terminated buffer. */
    int ddnn_scenario_write(const ddnn_scenario* s, char** out, size_t* len);

    /* A campaign: a base scenario and the values each varied parameter takes. */
    typedef struct ddnn_campaign ddnn_campaign; /* opaque */

    int ddnn_campaign_read_file(ddnn_campaign** out,
                                const char* path,
                                const char* schema_path,
                                ddnn_diag* diag);
    int ddnn_campaign_parse(ddnn_campaign** out,
                            const char* text,
                            size_t len,
                            const char* schema_path,
                            ddnn_diag* diag);
    void ddnn_campaign_free(ddnn_campaign* c);
    /* <reference file>: the table of published figures the report compares the campaign's
     * runs with (as written; relative to the campaign file), or "" without one. */
    const char* ddnn_campaign_reference(const ddnn_campaign* c);
    /* Number of runs: the product of the value counts (1 without <vary>). */
    size_t ddnn_campaign_size(const ddnn_campaign* c);
    /*
     * Run `index` (0-based, the last <vary> changing fastest): its scenario,
     * validated against the schema, and a name "param=value_param=value" that is
     * safe as a folder name: values percent-encoded but for letters, digits, '.' and '-', so
     * distinct runs have distinct names and a name gives back its values. A name longer than
     * name_size - 1 is DDNN_ERR_TOO_LARGE, never cut.
     */
    int ddnn_campaign_point(const ddnn_campaign* c,
                            size_t index,
                            const char* schema_path,
                            ddnn_scenario* s,
                            char* name,
                            size_t name_size,
                            ddnn_diag* diag);

    /* The <vary> dimensions, in document order. */
    size_t ddnn_campaign_dimension_count(const ddnn_campaign* c);
    /* The name of dimension d when it is a dimension of cases (<vary name>), else NULL. */
    const char* ddnn_campaign_case_dimension(const ddnn_campaign* c, size_t d);
    /* The parameter dimension d varies ("background.flow-rate") when it is a dimension of a
     * parameter's values, else NULL. */
    const char* ddnn_campaign_dimension_parameter(const ddnn_campaign* c, size_t d);
    /* The value (for cases, the case's name) dimension d takes in run `index`; NULL when
     * either is out of range. */
    const char* ddnn_campaign_point_value(const ddnn_campaign* c, size_t index, size_t d);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_SCENARIO_H */
