/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libFuzzer target for one of the C core's readers, chosen at build time with
 * -DDDNN_FUZZ_READER=<profile|cdf|schedule|scenario|campaign|calibration|manifest|args|table|
 * oracle|chakra> (chakra: one rank's Chakra ET file; args: a command line, one argument a line,
 * read into a scenario by the parameter table as the programs do; table: a run's table as the
 * campaign report reads it back, by its header's names; oracle: a reference run's buffers.csv, for
 * a model of 32 buffers). Built with clang's -fsanitize=fuzzer by ./ddnn fuzz, and with
 * fuzz-replay.c (a main that feeds it files) by the normal build, so that ctest replays the
 * committed corpus in test/fuzz/corpus/READER/. Every input must end in DDNN_OK or a negative code
 * with a diagnostic, never in a crash, a leak or undefined behaviour.
 */
#include "ddnn-calibration.h"
#include "ddnn-cdf.h"
#include "ddnn-chakra.h"
#include "ddnn-csv.h"
#include "ddnn-manifest.h"
#include "ddnn-oracle.h"
#include "ddnn-profile.h"
#include "ddnn-scenario-params.h"
#include "ddnn-scenario.h"
#include "ddnn-schedule.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DDNN_FUZZ_PROFILE     1
#define DDNN_FUZZ_CDF         2
#define DDNN_FUZZ_SCHEDULE    3
#define DDNN_FUZZ_SCENARIO    4
#define DDNN_FUZZ_CAMPAIGN    5
#define DDNN_FUZZ_CALIBRATION 6
#define DDNN_FUZZ_MANIFEST    7
#define DDNN_FUZZ_ARGS        8
#define DDNN_FUZZ_TABLE       9
#define DDNN_FUZZ_ORACLE      10
#define DDNN_FUZZ_CHAKRA      11

/* A rejected input must say why. */
static void
check_diagnostic(int rc, const ddnn_diag* diag)
{
    if (rc < 0 && (diag->code != rc || diag->message[0] == '\0'))
    {
        fprintf(stderr, "reader returned %d without a diagnostic\n", rc);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* text = (const char*)data;
    ddnn_diag diag = {0};
    int rc;
#if DDNN_FUZZ_READER == DDNN_FUZZ_PROFILE
    ddnn_profile* profile = NULL;
    rc = ddnn_profile_parse(&profile, text, size, &diag);
    if (rc == DDNN_OK)
    {
        uint64_t forward[8], backward[8];
        if (ddnn_profile_layer_count(profile) <= 8)
        {
            ddnn_profile_scale(profile, 1000000, forward, backward);
        }
    }
    ddnn_profile_free(profile);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_CHAKRA
    /* One rank's file, then joined with itself (two ranks that agree). */
    ddnn_chakra_rank* rank = NULL;
    rc = ddnn_chakra_parse_rank(&rank, text, size, &diag);
    if (rc == DDNN_OK)
    {
        ddnn_chakra_rank* const ranks[2] = {rank, rank};
        ddnn_chakra_trace* trace = NULL;
        size_t first, second;
        rc = ddnn_chakra_join(&trace, ranks, 2, &first, &second, &diag);
        if (rc == DDNN_OK)
        {
            (void)ddnn_chakra_trace_expected_bytes_per_worker(trace);
        }
        ddnn_chakra_trace_free(trace);
    }
    ddnn_chakra_rank_free(rank);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_CDF
    ddnn_cdf* cdf = NULL;
    rc = ddnn_cdf_parse(&cdf, text, size, &diag);
    if (rc == DDNN_OK)
    {
        for (int i = 0; i <= 16; ++i)
        {
            (void)ddnn_cdf_sample(cdf, i / 16.0);
        }
        (void)ddnn_cdf_mean(cdf);
    }
    ddnn_cdf_free(cdf);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_SCHEDULE
    ddnn_schedule schedule = {0};
    rc = ddnn_schedule_parse(&schedule, text, size, 16, &diag);
    ddnn_schedule_free(&schedule);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_SCENARIO
    ddnn_scenario scenario;
    ddnn_scenario_defaults(&scenario);
    rc = ddnn_scenario_parse(&scenario, text, size, &diag);
    if (rc == DDNN_OK)
    {
        char* xml = NULL;
        size_t len = 0;
        if (ddnn_scenario_write(&scenario, &xml, &len) == DDNN_OK)
        {
            free(xml);
        }
    }
#elif DDNN_FUZZ_READER == DDNN_FUZZ_CAMPAIGN
    ddnn_campaign* campaign = NULL;
    rc = ddnn_campaign_parse(&campaign, text, size, &diag);
    if (rc == DDNN_OK)
    {
        /* Expand the first and the last run: names and values of both ends of the grid. */
        size_t runs = ddnn_campaign_size(campaign);
        ddnn_scenario scenario;
        char name[512];
        ddnn_diag point_diag = {0};
        if (runs > 0)
        {
            check_diagnostic(
                ddnn_campaign_point(campaign, 0, &scenario, name, sizeof name, &point_diag),
                &point_diag);
            check_diagnostic(
                ddnn_campaign_point(campaign, runs - 1, &scenario, name, sizeof name, &point_diag),
                &point_diag);
        }
    }
    ddnn_campaign_free(campaign);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_CALIBRATION
    ddnn_calibration table = {NULL, 0};
    rc = ddnn_calibration_parse(&table, text, size, &diag);
    ddnn_calibration_free(&table);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_MANIFEST
    ddnn_manifest manifest = {NULL, 0};
    rc = ddnn_manifest_parse(&manifest, text, size, &diag);
    if (rc == DDNN_OK)
    {
        /* what the runner then opens: never a path out of the run folder */
        for (size_t i = 0; i < manifest.count; i++)
        {
            if (!ddnn_manifest_path_is_inside(manifest.entries[i].path))
            {
                abort();
            }
        }
    }
    ddnn_manifest_free(&manifest);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_ARGS
    /* argv[0], then one argument a line (at most 64): each a copy, NUL-terminated. */
    char* copy = malloc(size + 1);
    const char* argv[65];
    int argc = 1;
    size_t i, start = 0;
    ddnn_scenario scenario;
    const ddnn_param* bad = NULL;
    if (!copy)
    {
        return 0;
    }
    memcpy(copy, text, size);
    copy[size] = '\0';
    argv[0] = "ddnn-fuzz";
    for (i = 0; i <= size && argc < 65; i++)
    {
        if (i == size || copy[i] == '\n')
        {
            copy[i] = '\0';
            argv[argc++] = copy + start;
            start = i + 1;
        }
    }
    ddnn_scenario_defaults(&scenario);
    rc = ddnn_scenario_apply_args(&scenario, argc, argv, NULL, NULL, &bad, &diag);
    if (rc < 0 && !bad)
    {
        fprintf(stderr, "a refused argument without its parameter\n");
        abort();
    }
    if (rc == DDNN_OK)
    {
        ddnn_diag check = {0};
        int checked = ddnn_scenario_check(&scenario, &bad, &check);
        check_diagnostic(checked, &check);
        if (checked == DDNN_OK)
        {
            char* xml = NULL;
            size_t len = 0;
            if (ddnn_scenario_write(&scenario, &xml, &len) == DDNN_OK)
            {
                free(xml);
            }
        }
    }
    free(copy);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_TABLE
    ddnn_csv* csv = malloc(sizeof *csv);
    size_t chars = 0;
    int i;
    if (!csv)
    {
        return 0;
    }
    ddnn_csv_init(csv, text, size, NULL);
    while ((rc = ddnn_csv_next(csv, &diag)) == 1)
    {
        /* every field (and then each header name) readable to its end: within the input */
        for (i = 0; i < ddnn_csv_field_count(csv); i++)
        {
            chars += strlen(ddnn_csv_field(csv, i));
        }
    }
    for (i = 0; i < ddnn_csv_header_count(csv); i++)
    {
        chars += strlen(ddnn_csv_header_name(csv, i));
    }
    if (chars > size)
    {
        fprintf(stderr, "more text in the fields than in the input\n");
        abort();
    }
    free(csv);
#elif DDNN_FUZZ_READER == DDNN_FUZZ_ORACLE
    uint8_t raise[32];
    rc = ddnn_oracle_parse(text, size, 32, raise, &diag);
    if (rc == DDNN_OK)
    {
        for (size_t b = 0; b < 32; b++)
        {
            if (raise[b] > 1)
            {
                abort();
            }
        }
    }
#else
#error "define DDNN_FUZZ_READER as one of DDNN_FUZZ_PROFILE ... DDNN_FUZZ_ORACLE"
#endif
    check_diagnostic(rc, &diag);
    return 0;
}
