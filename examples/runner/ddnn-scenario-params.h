/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parameters of a scenario (ddnn-scenario-rows.def, their one place) as a table: XML
 * element and attribute, command-line flag, type, unit, default, range, help and the ns-3
 * attribute it sets. Defaults, range checks, the command-line options of the programs, the
 * written-back scenario.xml and the XML schema all come from here.
 */
#ifndef DDNN_SCENARIO_PARAMS_H
#define DDNN_SCENARIO_PARAMS_H

#include "ddnn-scenario.h"
#include "ns3/ddnn-error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef enum
    {
        DDNN_PARAM_U32,    /* whole number, digits only (no sign) */
        DDNN_PARAM_U64,    /* whole number, digits only (no sign) */
        DDNN_PARAM_DOUBLE, /* finite decimal */
        DDNN_PARAM_BOOL,   /* true, false, 1 or 0 */
        DDNN_PARAM_TEXT    /* one of `choices`, or free text (a path, a data rate) */
    } ddnn_param_type;

    /* What a text parameter's value looks like, for the schema (ddnn-scenario-schema.c). */
    typedef enum
    {
        DDNN_TEXT_ANY,  /* one of `choices` when it has them, else any text that fits */
        DDNN_TEXT_RATE, /* an ns-3 data rate: digits and a unit, e.g. 10Gbps */
        DDNN_TEXT_NAME  /* a name of a host's registry, `choices` the shipped ones */
    } ddnn_text_form;

/* Flags of a number row (ddnn-scenario-rows.def). */
#define DDNN_PARAM_MIN_EXCLUSIVE 1 /* min itself is refused */
#define DDNN_PARAM_REQUIRED      2 /* a scenario file must give it */

    typedef struct
    {
        const char* element;   /* XML element, e.g. "training" */
        const char* attribute; /* XML attribute, e.g. "fusion-bytes" */
        const char* flag;      /* command-line option without "--", e.g. "fusionBytes" */
        ddnn_param_type type;
        const char* unit;          /* "" when the value has none */
        const char* default_value; /* as text; NULL: the tuned transport profile's (read it
                                      through ddnn_param_default) */
        double min, max;           /* numbers: the range */
        int min_exclusive;         /* numbers: min itself is not allowed */
        int required;              /* a scenario file must give it */
        ddnn_text_form form;       /* text: what the value looks like */
        const char* choices;       /* text: "a|b|c", or NULL for free text */
        const char* help;
        size_t offset, size; /* where it lives in ddnn_scenario */
        /* The ns-3 attribute the value sets as it is, "ns3::Type::Attribute" (a unit of time
         * becomes a Time, a choice the enum value of that name), or NULL: the runner sets it
         * on every object of that type it builds (examples/runner/scenario-attributes.cc). */
        const char* sets;
    } ddnn_param;

    size_t ddnn_scenario_param_count(void);
    /* The i-th parameter (document order), NULL past the end. */
    const ddnn_param* ddnn_scenario_param(size_t i);
    /* By "element.attribute", or NULL. */
    const ddnn_param* ddnn_scenario_param_named(const char* name);
    /*
     * By "element.attribute" or, for a training job's parameter, "training[K].attribute" (K from
     * 1; "training.attribute" is job 1's): the parameter and the 0-based job. DDNN_ERR_MISSING
     * for no such parameter, DDNN_ERR_RANGE for K outside 1..DDNN_SCENARIO_MAX_JOBS.
     */
    int ddnn_scenario_param_address(const char* name, const ddnn_param** p, uint32_t* job);
    /* The longest list of choices ("a|b|c") a host may set, with its NUL. */
#define DDNN_PARAM_CHOICES_MAX 512

    /*
     * Replaces the choices of the text parameter `name` ("element.attribute") with `choices`
     * ("a|b|c", copied): for parameters whose choices are a host's registries (collectives,
     * transports, topologies, queue discs), so that what a registry holds is what a scenario
     * may name. DDNN_ERR_MISSING for no text parameter with choices of that name,
     * DDNN_ERR_SYNTAX for an empty list or an empty choice, DDNN_ERR_TOO_LARGE for a list of
     * DDNN_PARAM_CHOICES_MAX bytes or more or a choice longer than the value's field holds,
     * DDNN_ERR_RANGE when the default is not among them.
     * Not thread-safe: call it before reading scenarios.
     */
    int ddnn_scenario_param_set_choices(const char* name, const char* choices);

    /* p's default as text: its own, or for a <transport> value the tuned profile's
     * (ddnn-transport-profile.h), the one place of those. */
    const char* ddnn_param_default(const ddnn_param* p);

    /* Whether p is a training job's (one value per job) rather than the scenario's. */
    int ddnn_param_is_per_job(const ddnn_param* p);
    /* By command-line flag, or NULL. */
    const ddnn_param* ddnn_scenario_param_by_flag(const char* flag);
    /* The parameter that sets ns-3 attribute `attribute` ("ns3::Type::Attribute"), or NULL. */
    const ddnn_param* ddnn_scenario_param_setting(const char* attribute);

    /*
     * Parses `text` as parameter p's value and checks its type and range into *s.
     * DDNN_ERR_SYNTAX for text that is not of the type, DDNN_ERR_RANGE outside the range or
     * the choices; diag->message then says what was expected and what was found.
     */
    int ddnn_scenario_set_param(ddnn_scenario* s,
                                const ddnn_param* p,
                                const char* text,
                                ddnn_diag* diag);

    /* The same for job `job` (0-based) of a per-job parameter; other parameters ignore it. */
    int ddnn_scenario_set_job_param(
        ddnn_scenario* s, const ddnn_param* p, uint32_t job, const char* text, ddnn_diag* diag);

    /* Checks every value of *s (every job's) against its range and choices (values set by
     * code), and the number of jobs. */
    int ddnn_scenario_check(const ddnn_scenario* s, const ddnn_param** bad, ddnn_diag* diag);

    /* Formats parameter p's value in *s as text that ddnn_scenario_set_param reads back
     * to the same value; DDNN_ERR_TOO_LARGE when out is too small. */
    int ddnn_scenario_format_param(const ddnn_scenario* s,
                                   const ddnn_param* p,
                                   char* out,
                                   size_t out_size);

    int ddnn_scenario_format_job_param(
        const ddnn_scenario* s, const ddnn_param* p, uint32_t job, char* out, size_t out_size);

    /*
     * The value of argument `arg` if it is the option `flag` ("--flag=VALUE", any number of
     * leading dashes as ns-3 takes them), else NULL.
     */
    const char* ddnn_arg_value(const char* arg, const char* flag);

    /*
     * Sets the parameters a command line gives (argv[1..argc-1]; the last --FLAG=VALUE of a
     * flag wins, as in ns-3's parser, and VALUE is taken whole, blanks included) into *s, the
     * transport profile first so that values given beside it override its own. Only the
     * parameters `accept` (when not NULL) returns non-zero for; other arguments are skipped.
     * On a refused value: its parameter in *bad, the reason in diag.
     */
    int ddnn_scenario_apply_args(ddnn_scenario* s,
                                 int argc,
                                 const char* const* argv,
                                 int (*accept)(const ddnn_param* p, void* ctx),
                                 void* ctx,
                                 const ddnn_param** bad,
                                 ddnn_diag* diag);

    /* "a whole number in [2, 250]", "fifo or priority", ...: what parameter p accepts. */
    void ddnn_param_describe(const ddnn_param* p, char* out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* DDNN_SCENARIO_PARAMS_H */
