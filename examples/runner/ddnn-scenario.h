/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files of scenarios and campaigns (XML, validated against the schema generated from the
 * parameter table, ddnn-scenario-schema.h, with libxml2). A scenario describes one run: topology,
 * training tenant, background tenant, priority, duration and measurement window, seed and outputs.
 * A campaign is a base scenario plus <vary parameter="element.attribute" values="v1 v2 ..."/>
 * dimensions whose product is the grid of runs.
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

/* The C type of a number row's field (ddnn-scenario-rows.def). */
#define DDNN_FIELD_TYPE_U32    uint32_t
#define DDNN_FIELD_TYPE_U64    uint64_t
#define DDNN_FIELD_TYPE_DOUBLE double
/* A row's field, in the struct of its group (in_JOB, in_SCENARIO: keep or drop it). */
#define DDNN_NUMBER(group, el, at, fl, type, unit, def, lo, hi, flags, help, member, sets) \
    DDNN_FIELD_IN_##group(DDNN_FIELD_TYPE_##type member;)
#define DDNN_BOOL(group, el, at, fl, def, help, member, sets) DDNN_FIELD_IN_##group(int member;)
#define DDNN_TEXT(group, el, at, fl, size, form, def, choices, help, member, sets) \
    DDNN_FIELD_IN_##group(char member[size];)

    /* One training job: a <training> element, the JOB rows. */
    typedef struct
    {
#define DDNN_FIELD_IN_JOB(field)      field
#define DDNN_FIELD_IN_SCENARIO(field) /* not a job's */
#include "ddnn-scenario-rows.def"
#undef DDNN_FIELD_IN_JOB
#undef DDNN_FIELD_IN_SCENARIO
    } ddnn_scenario_job;

    typedef struct
    {
        /* The SCENARIO rows: <topology>, <background>, <transport>, <priority>, <run>,
         * <output> */
#define DDNN_FIELD_IN_JOB(field)      /* a job's */
#define DDNN_FIELD_IN_SCENARIO(field) field
#include "ddnn-scenario-rows.def"
#undef DDNN_FIELD_IN_JOB
#undef DDNN_FIELD_IN_SCENARIO
        /* <training>, once per job in document order: values a job leaves out are the first
         * job's. Parameters named "training.X" are the first job's, "training[K].X" job K's. */
        uint32_t job_count; /* 1..DDNN_SCENARIO_MAX_JOBS */
        ddnn_scenario_job jobs[DDNN_SCENARIO_MAX_JOBS];
        /* <ns3-default>, in document order; a name at most once */
        uint32_t ns3_default_count;
        ddnn_ns3_default ns3_defaults[DDNN_SCENARIO_MAX_NS3_DEFAULTS];
    } ddnn_scenario;
#undef DDNN_NUMBER
#undef DDNN_BOOL
#undef DDNN_TEXT
#undef DDNN_FIELD_TYPE_U32
#undef DDNN_FIELD_TYPE_U64
#undef DDNN_FIELD_TYPE_DOUBLE

    /* The thesis defaults (Tables 5.1 and 5.2) for every value a file may leave out. */
    void ddnn_scenario_defaults(ddnn_scenario* s);

    /*
     * Reads a scenario file, validating it against the schema (ddnn-scenario-schema.h).
     * Values the file leaves out keep what *s held. diag names the line and the
     * element or attribute at fault.
     */
    int ddnn_scenario_read_file(ddnn_scenario* s, const char* path, ddnn_diag* diag);
    int ddnn_scenario_parse(ddnn_scenario* s, const char* text, size_t len, ddnn_diag* diag);

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

    int ddnn_campaign_read_file(ddnn_campaign** out, const char* path, ddnn_diag* diag);
    int ddnn_campaign_parse(ddnn_campaign** out, const char* text, size_t len, ddnn_diag* diag);
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
