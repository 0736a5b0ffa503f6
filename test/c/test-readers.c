/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the readers of the runner's own files: the calibration table, a run's
 * MANIFEST and its tables. */
#include "ddnn-calibration.h"
#include "ddnn-csv.h"
#include "ddnn-manifest.h"
#include "ddnn-oracle.h"
#include "ddnn-unit.h"

#include <stdlib.h>
#include <string.h>

static void
calibration_error(const char* text, int code, long line, const char* field)
{
    ddnn_calibration c = {NULL, 0};
    ddnn_diag diag = {0};
    CHECK_REJECTED(
        ddnn_calibration_parse(&c, text, strlen(text), &diag), &diag, text, code, line, field);
    CHECK(c.rows == NULL);
}

static void
calibration_by_column_names(void)
{
    static const char text[]
        = "\xef\xbb\xbf# measured\nrcp,profile,workers,cpu_s_per_sim_s,flow_rate\n"
          "2,tuned,8,90.5,23\n16,thesis,8,15.25,184\n";
    ddnn_calibration c = {NULL, 0};
    ddnn_diag diag = {0};
    CHECK(ddnn_calibration_parse(&c, text, sizeof text - 1, &diag) == DDNN_OK);
    CHECK_U64(c.count, 2);
    if (c.count == 2)
    {
        CHECK(strcmp(c.rows[0].profile, "tuned") == 0 && strcmp(c.rows[1].profile, "thesis") == 0);
        CHECK_U64(c.rows[0].workers, 8);
        CHECK_NEAR(c.rows[0].rcp, 2, 0);
        CHECK_NEAR(c.rows[0].flow_rate, 23, 0);
        CHECK_NEAR(c.rows[1].cpu_s_per_sim_s, 15.25, 0);
        CHECK_U64(c.rows[1].line, 4);
    }
    ddnn_calibration_free(&c);
    calibration_error("", DDNN_ERR_EMPTY, 0, "");
    calibration_error("tuned,8,2,23,90\n", DDNN_ERR_SYNTAX, 1, "");
    calibration_error("1,8,2,23,90\n", DDNN_ERR_SYNTAX, 1, "");
    calibration_error("profile,workers,rcp,flow_rate,cpu_s_per_sim_s\ntuned,8,0x2,23,90\n",
                      DDNN_ERR_SYNTAX,
                      2,
                      "rcp");
    calibration_error("profile,workers,rcp,flow_rate,cpu_s_per_sim_s\ntuned,8.5,2,23,90\n",
                      DDNN_ERR_SYNTAX,
                      2,
                      "workers");
    calibration_error("profile,workers,rcp,flow_rate,cpu_s_per_sim_s\n\"tuned\",8,2,23,90\n",
                      DDNN_ERR_SYNTAX,
                      2,
                      "");
}

static void
manifest_error(const char* text, int code, long line, const char* field)
{
    ddnn_manifest m = {NULL, 0};
    ddnn_diag diag = {0};
    CHECK_REJECTED(
        ddnn_manifest_parse(&m, text, strlen(text), &diag), &diag, text, code, line, field);
    CHECK(m.entries == NULL);
}

static void
manifest_paths_stay_in_their_folder(void)
{
    static const char text[] = "# size fnv1a64 path\n12 cbf29ce484222325 summary.csv\n"
                               "3 a same/my flows.csv\n";
    ddnn_manifest m = {NULL, 0};
    ddnn_diag diag = {0};
    CHECK(ddnn_manifest_parse(&m, text, sizeof text - 1, &diag) == DDNN_OK);
    CHECK_U64(m.count, 2);
    if (m.count == 2)
    {
        CHECK_U64(m.entries[0].size, 12);
        CHECK_U64(m.entries[0].checksum, 0xcbf29ce484222325ULL);
        CHECK(strcmp(m.entries[1].path, "same/my flows.csv") == 0);
    }
    ddnn_manifest_free(&m);
    manifest_error("", DDNN_ERR_EMPTY, 0, "");
    manifest_error("1 2 ../x\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 a/../../x\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 /etc/passwd\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 a//b\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 ./a\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 a\r\n", DDNN_ERR_RANGE, 1, "path");
    manifest_error("1 2 a\n1 3 a\n", DDNN_ERR_DUPLICATE, 2, "path");
    manifest_error("-1 2 a\n", DDNN_ERR_SYNTAX, 1, "");
    manifest_error("1 2G a\n", DDNN_ERR_SYNTAX, 1, "");
    manifest_error("18446744073709551616 2 a\n", DDNN_ERR_SYNTAX, 1, "");
    manifest_error("1 2\n", DDNN_ERR_SYNTAX, 1, "");
}

/* A run's table read back as text, by its header's names. */
static void
table_by_header_names(void)
{
    static const char text[] = "key,value\niterations,5\niteration_time_mean_s,NA\nnote,\n";
    ddnn_csv* csv = malloc(sizeof *csv);
    ddnn_diag diag = {0};
    const char* expected[][2]
        = {{"iterations", "5"}, {"iteration_time_mean_s", "NA"}, {"note", ""}};
    int rows = 0;
    if (!csv)
        return;
    ddnn_csv_init(csv, text, sizeof text - 1, NULL);
    CHECK(ddnn_csv_header_count(csv) == 0);
    while (ddnn_csv_next(csv, &diag) == 1)
    {
        CHECK(ddnn_csv_field_count(csv) == 2);
        if (rows < 3 && ddnn_csv_field_count(csv) == 2)
        {
            CHECK(strcmp(ddnn_csv_field(csv, 0), expected[rows][0]) == 0);
            CHECK(strcmp(ddnn_csv_field(csv, 1), expected[rows][1]) == 0);
        }
        CHECK(ddnn_csv_field(csv, 2) == NULL);
        rows++;
    }
    CHECK(rows == 3);
    CHECK(ddnn_csv_header_count(csv) == 2);
    CHECK(strcmp(ddnn_csv_header_name(csv, 0), "key") == 0);
    CHECK(strcmp(ddnn_csv_header_name(csv, 1), "value") == 0);
    CHECK(ddnn_csv_header_name(csv, 2) == NULL);
    /* A table of numbers only has no header: no names. */
    ddnn_csv_init(csv, "1,2\n3,4\n", 8, NULL);
    rows = 0;
    while (ddnn_csv_next(csv, &diag) == 1)
        rows++;
    CHECK(rows == 2 && ddnn_csv_header_count(csv) == 0);
    free(csv);
}

/* The oracle learns from a buffers.csv by its column names: a buffer late in at least half of
 * its finished collectives is raised; unfinished rows count for nothing; faults are named. */
static void
oracle_raises_the_buffers_the_forward_pass_waited_for(void)
{
    const char* table = "iteration,buffer,end_s,allreduce_s,deadline_s,tos_8_s\n"
                        "0,0,0.010,0.002,0.020,0.002\n" /* 0: early */
                        "0,1,0.030,0.002,0.025,0.002\n" /* 1: late */
                        "0,2,0.040,0.002,0.040,0.002\n" /* 2: on time (not after) */
                        "1,0,0.110,0.002,0.120,0.002\n"
                        "1,1,0.121,0.002,0.125,0.002\n" /* 1: once late, once not */
                        "1,2,0.150,0.002,0.140,0.002\n" /* 2: once late, once not */
                        "2,0,,,0.220,\n"                /* running: not counted */
                        "2,3,,,0.240,\n";
    uint8_t raise[4] = {9, 9, 9, 9};
    ddnn_diag diag;
    CHECK(ddnn_oracle_parse(table, strlen(table), 4, raise, &diag) == DDNN_OK);
    CHECK(raise[0] == 0 && raise[1] == 1 && raise[2] == 1 && raise[3] == 0);
    CHECK(ddnn_oracle_parse(table, strlen(table), 3, raise, &diag) == DDNN_ERR_RANGE);
    CHECK_STR_CONTAINS(diag.message, "buffer 3, but the model has buffers 0..2");
    {
        const char* without = "iteration,buffer,end_s\n0,0,0.01\n";
        CHECK(ddnn_oracle_parse(without, strlen(without), 4, raise, &diag) == DDNN_ERR_MISSING);
        CHECK_STR_CONTAINS(diag.message, "no column 'deadline_s'");
    }
    {
        const char* bad = "buffer,end_s,deadline_s\n0,soon,0.01\n";
        CHECK(ddnn_oracle_parse(bad, strlen(bad), 4, raise, &diag) == DDNN_ERR_SYNTAX);
        CHECK(diag.line == 2);
    }
    {
        const char* negative = "buffer,end_s,deadline_s\n-1,0.1,0.01\n";
        CHECK(ddnn_oracle_parse(negative, strlen(negative), 4, raise, &diag) == DDNN_ERR_SYNTAX);
    }
    {
        const char* unfinished = "buffer,end_s,deadline_s\n0,,0.01\n";
        CHECK(ddnn_oracle_parse(unfinished, strlen(unfinished), 1, raise, &diag) == DDNN_ERR_EMPTY);
    }
    /* A reference of fewer buffers than the model is another model's run. */
    {
        uint8_t five[5];
        CHECK(ddnn_oracle_parse(table, strlen(table), 5, five, &diag) == DDNN_ERR_MISSING);
        CHECK_STR_CONTAINS(diag.message, "names buffers 0..3, but the model has buffers 0..4");
    }
}

int
main(void)
{
    RUN(calibration_by_column_names);
    RUN(manifest_paths_stay_in_their_folder);
    RUN(table_by_header_names);
    RUN(oracle_raises_the_buffers_the_forward_pass_waited_for);
    return UNIT_REPORT();
}
