/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the scenario and campaign files (libxml2, validated by the schema). */
#include "ddnn-scenario-params.h"
#include "ddnn-scenario.h"
#include "ddnn-unit.h"

#include <stdlib.h>

static const char* data_dir = DDNN_DATA_DIR;

static int
parse(ddnn_scenario* s, const char* text, ddnn_diag* diag)
{
    ddnn_scenario_defaults(s);
    memset(diag, 0, sizeof *diag);
    return ddnn_scenario_parse(s, text, strlen(text), diag);
}

static void
reads_values_and_keeps_defaults(void)
{
    ddnn_scenario s;
    ddnn_diag diag;
    const char* text = "<scenario version=\"1\">\n"
                       "  <topology workers=\"4\" delay-us=\"2.5\"/>\n"
                       "  <training rcp=\"8\" queue=\"priority\" barrier=\"false\"/>\n"
                       "  <run duration-s=\"3\"/>\n"
                       "</scenario>\n";
    CHECK(parse(&s, text, &diag) == DDNN_OK);
    CHECK_U64(s.workers, 4);
    CHECK_NEAR(s.delay_us, 2.5, 0);
    CHECK_NEAR(s.jobs[0].rcp, 8, 0);
    CHECK(strcmp(s.jobs[0].queue, "priority") == 0);
    CHECK(s.jobs[0].barrier == 0);
    CHECK_NEAR(s.duration_s, 3, 0);
    CHECK_U64(s.jobs[0].fusion_bytes, 5333329); /* default kept */
    CHECK(strcmp(s.training_priority, "low") == 0);
}

/* Written out and read back, every value (doubles too) comes back exactly. */
static void
write_then_read_is_exact(void)
{
    ddnn_scenario a, b;
    ddnn_diag diag;
    char *first, *second;
    size_t n1, n2;
    ddnn_scenario_defaults(&a);
    a.delay_us = 0.1 + 0.2; /* not representable in few digits */
    a.jobs[0].compute_ms = 1.0 / 3.0;
    snprintf(a.jobs[0].profile, sizeof a.jobs[0].profile, "/tmp/a \"quoted\" & <odd> name.csv");
    CHECK(ddnn_scenario_write(&a, &first, &n1) == DDNN_OK);
    ddnn_scenario_defaults(&b);
    CHECK(ddnn_scenario_parse(&b, first, n1, &diag) == DDNN_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(ddnn_scenario_write(&b, &second, &n2) == DDNN_OK);
    CHECK(n1 == n2 && memcmp(first, second, n1) == 0);
    free(first);
    free(second);
}

static void
expect_error(const char* text, long line, const char* part)
{
    ddnn_scenario s;
    ddnn_diag diag;
    CHECK(parse(&s, text, &diag) != DDNN_OK);
    CHECK(diag.line == line);
    CHECK_STR_CONTAINS(diag.message, part);
}

static void
rejects_bad_documents(void)
{
    expect_error("<scenario version=\"1\">\n<topology workers=\"4\"/>\n<run duration-s=\"1\" "
                 "speed=\"2\"/>\n</scenario>",
                 3,
                 "'speed' is not allowed");
    expect_error("<scenario version=\"1\">\n<topology workers=\"4\"/>\n<walk duration-s=\"1\"/>\n"
                 "</scenario>",
                 3,
                 "'walk': This element is not expected");
    expect_error("<scenario version=\"1\">\n<topology workers=\"x\"/>\n<run duration-s=\"1\"/>\n"
                 "</scenario>",
                 2,
                 "element 'topology', attribute 'workers': expected a whole number in [2, 250], "
                 "got 'x'");
    expect_error("<scenario version=\"1\">\n<topology workers=\"4\"/>\n<run duration-s=\"0\"/>\n"
                 "</scenario>",
                 3,
                 "element 'run', attribute 'duration-s': expected a number in (0, 100000] (s), "
                 "got '0'");
    expect_error("<scenario version=\"2\">\n<topology workers=\"4\"/>\n<run duration-s=\"1\"/>\n"
                 "</scenario>",
                 1,
                 "version");
    expect_error("<scenario version=\"1\">\n<topology workers=\"4\"/>\n</scenario>",
                 1,
                 "Missing child element");
    expect_error("just text", 1, "Start tag expected");
    expect_error("<scenario version=\"1\"><topology workers=\"4\"/>", 1, "");
    expect_error("<campaign version=\"1\"/>", 1, "");
}

static void
refuses_dtds_entities_and_huge_input(void)
{
    ddnn_scenario s;
    ddnn_diag diag;
    char* huge;
    expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [ <!ENTITY a \"b\"> ]>\n"
                 "<scenario version=\"1\"><topology workers=\"4\"/><run duration-s=\"1\"/>"
                 "</scenario>",
                 2,
                 "not allowed");
    expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE s [ <!ENTITY x SYSTEM \"file:///etc/passwd\"> "
                 "]>\n<scenario version=\"1\"><topology workers=\"&x;\"/><run duration-s=\"1\"/>"
                 "</scenario>",
                 3,
                 "external entity");
    huge = malloc(DDNN_SCENARIO_MAX_BYTES + 2);
    if (!huge)
    {
        return;
    }
    memset(huge, ' ', DDNN_SCENARIO_MAX_BYTES + 1);
    huge[DDNN_SCENARIO_MAX_BYTES + 1] = '\0';
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_parse(&s, huge, strlen(huge), &diag) == DDNN_ERR_TOO_LARGE);
    /* 10^5 attributes inside the byte bound: refused by count, before the parser's square. */
    {
        size_t used = (size_t)snprintf(
            huge, DDNN_SCENARIO_MAX_BYTES, "<scenario version=\"1\"><topology workers=\"4\"");
        int i;
        for (i = 0; i < 100000 && used + 32 < DDNN_SCENARIO_MAX_BYTES; i++)
        {
            used += (size_t)snprintf(huge + used, DDNN_SCENARIO_MAX_BYTES - used, " a%d=\"1\"", i);
        }
        snprintf(huge + used, DDNN_SCENARIO_MAX_BYTES + 2 - used, "/></scenario>");
        memset(&diag, 0, sizeof diag);
        CHECK(ddnn_scenario_parse(&s, huge, strlen(huge), &diag) == DDNN_ERR_TOO_LARGE);
        CHECK_STR_CONTAINS(diag.message, "more than 1000 attributes");
    }
    free(huge);
}

static void
sets_values_by_name(void)
{
    ddnn_scenario s;
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_set(&s, "background.flow-rate", "184") == DDNN_OK);
    CHECK_NEAR(s.flow_rate, 184, 0);
    CHECK(ddnn_scenario_set(&s, "priority.training", "same") == DDNN_OK);
    CHECK(strcmp(s.training_priority, "same") == 0);
    CHECK(ddnn_scenario_set(&s, "training.barrier", "false") == DDNN_OK);
    CHECK(s.jobs[0].barrier == 0);
    CHECK(ddnn_scenario_set(&s, "training.nothing", "1") == DDNN_ERR_MISSING);
    CHECK(ddnn_scenario_set(&s, "workers", "1") == DDNN_ERR_MISSING);
    CHECK(ddnn_scenario_set(&s, "topology.workers", "eight") == DDNN_ERR_SYNTAX);
    CHECK(ddnn_scenario_set(&s, "run.seed", "-1") == DDNN_ERR_SYNTAX);
}

/* The thesis grid: 4 x 4 x 2 x 3 = 96 runs, the last <vary> changing fastest. */
static void
expands_the_thesis_grid(void)
{
    char path[1024], name[256];
    ddnn_campaign* c = NULL;
    ddnn_scenario s;
    ddnn_diag diag;
    snprintf(path, sizeof path, "%s/scenarios/thesis-grid.xml", data_dir);
    CHECK(ddnn_campaign_read_file(&c, path, &diag) == DDNN_OK);
    if (!c)
    {
        fprintf(stderr, "  %s\n", diag.message);
        return;
    }
    CHECK_U64(ddnn_campaign_size(c), 96);
    CHECK(ddnn_campaign_point(c, 0, &s, name, sizeof name, &diag) == DDNN_OK);
    CHECK(strcmp(name, "rcp=16_flow-rate=23_training=same_seed=1") == 0);
    CHECK_NEAR(s.jobs[0].rcp, 16, 0);
    CHECK(ddnn_campaign_point(c, 1, &s, name, sizeof name, &diag) == DDNN_OK);
    CHECK(strcmp(name, "rcp=16_flow-rate=23_training=same_seed=2") == 0);
    CHECK_U64(s.seed, 2);
    CHECK(ddnn_campaign_point(c, 95, &s, name, sizeof name, &diag) == DDNN_OK);
    CHECK(strcmp(name, "rcp=2_flow-rate=184_training=low_seed=3") == 0);
    CHECK_NEAR(s.flow_rate, 184, 0);
    CHECK_NEAR(s.duration_s, 12, 0);
    CHECK(strcmp(s.training_priority, "low") == 0);
    CHECK(ddnn_campaign_point(c, 96, &s, name, sizeof name, &diag) == DDNN_ERR_INVALID);
    ddnn_campaign_free(c);
}

static void
thesis_defaults_scenario(void)
{
    char path[1024];
    ddnn_scenario s;
    ddnn_diag diag;
    snprintf(path, sizeof path, "%s/scenarios/thesis-defaults.xml", data_dir);
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_read_file(&s, path, &diag) == DDNN_OK);
    CHECK_U64(s.workers, 8);
    CHECK_U64(s.jobs[0].fusion_bytes, 5333329);
    CHECK_NEAR(s.duration_s, 12, 0);
    CHECK_NEAR(s.warmup_s, 2, 0);
    CHECK(strcmp(s.training_priority, "low") == 0);
    /* the thesis's training configuration and transport */
    CHECK(strcmp(s.jobs[0].queue, "priority") == 0 && s.jobs[0].barrier == 0);
    CHECK(strcmp(s.transport_profile, "thesis") == 0);
    CHECK(strcmp(s.congestion_control, "NewReno") == 0 && s.segment_size == 1380);
    CHECK(s.socket_buffer_bytes == 33554432 && s.background_acks_in_data_band == 0);
    /* the thesis code's default run: R 4, 46 flows/s, 2 s measured whole */
    snprintf(path, sizeof path, "%s/scenarios/thesis-code-default.xml", data_dir);
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_read_file(&s, path, &diag) == DDNN_OK);
    CHECK_NEAR(s.jobs[0].rcp, 4, 0);
    CHECK_NEAR(s.flow_rate, 46, 0);
    CHECK_NEAR(s.duration_s, 2, 0);
    CHECK_NEAR(s.warmup_s + s.cooldown_s, 0, 0);
    CHECK(strcmp(s.transport_profile, "thesis") == 0);
}

/* Parses a campaign from text; returns its code, the campaign (or NULL) in *out. */
static int
parse_campaign(const char* vary, ddnn_campaign** out, ddnn_diag* diag)
{
    char text[4096];
    snprintf(text,
             sizeof text,
             "<campaign version=\"1\"><scenario version=\"1\"><topology workers=\"4\"/>"
             "<run duration-s=\"1\"/></scenario>%s</campaign>",
             vary);
    memset(diag, 0, sizeof *diag);
    *out = NULL;
    return ddnn_campaign_parse(out, text, strlen(text), diag);
}

/* A dimension of named cases: each case sets its parameters on the base; the run's name and
 * ddnn_campaign_point_value give the case's name; bad cases are refused with a line. */
static void
campaign_cases_set_several_parameters(void)
{
    ddnn_campaign* c = NULL;
    ddnn_diag diag;
    ddnn_scenario s;
    char name[256];
    const char* policies = "<vary parameter=\"run.seed\" values=\"1 2\"/>"
                           "<vary name=\"policy\">"
                           "<case name=\"same\"><set parameter=\"priority.training\" "
                           "value=\"same\"/></case>"
                           "<case name=\"slack-10\">"
                           "<set parameter=\"training.priority-policy\" value=\"slack-adaptive\"/>"
                           "<set parameter=\"training.slack-margin\" value=\"0.1\"/>"
                           "</case></vary>";
    CHECK(parse_campaign(policies, &c, &diag) == DDNN_OK);
    CHECK(ddnn_campaign_size(c) == 4);
    CHECK(ddnn_campaign_dimension_count(c) == 2);
    CHECK(ddnn_campaign_case_dimension(c, 0) == NULL);
    CHECK(strcmp(ddnn_campaign_case_dimension(c, 1), "policy") == 0);
    CHECK(ddnn_campaign_point(c, 3, &s, name, sizeof name, &diag) == DDNN_OK);
    CHECK(strcmp(name, "seed=2_policy=slack-10") == 0);
    CHECK(strcmp(ddnn_campaign_point_value(c, 3, 1), "slack-10") == 0);
    CHECK(strcmp(ddnn_campaign_point_value(c, 3, 0), "2") == 0);
    CHECK(ddnn_campaign_point_value(c, 4, 0) == NULL);
    CHECK(strcmp(s.jobs[0].priority_policy, "slack-adaptive") == 0);
    CHECK(s.jobs[0].slack_margin == 0.1);
    CHECK(s.seed == 2);
    CHECK(ddnn_campaign_point(c, 0, &s, name, sizeof name, &diag) == DDNN_OK);
    CHECK(strcmp(s.jobs[0].priority_policy, "static") == 0); /* the base's, not case 2's */
    CHECK(strcmp(s.training_priority, "same") == 0);
    ddnn_campaign_free(c);

    CHECK(parse_campaign("<vary name=\"p\"><case name=\"a\"><set parameter=\"run.seed\" "
                         "value=\"1\"/></case><case name=\"a\"><set parameter=\"run.seed\" "
                         "value=\"2\"/></case></vary>",
                         &c,
                         &diag)
          == DDNN_ERR_DUPLICATE);
    CHECK_STR_CONTAINS(diag.message, "two cases named 'a'");
    CHECK(parse_campaign("<vary name=\"p\"><case name=\"a\"><set parameter=\"run.seed\" "
                         "value=\"1\"/><set parameter=\"run.seed\" value=\"2\"/></case></vary>",
                         &c,
                         &diag)
          == DDNN_ERR_DUPLICATE);
    CHECK_STR_CONTAINS(diag.message, "sets 'run.seed' twice");
    CHECK(parse_campaign("<vary parameter=\"run.seed\" values=\"1 2\"/><vary name=\"p\">"
                         "<case name=\"a\"><set parameter=\"run.seed\" value=\"3\"/></case>"
                         "</vary>",
                         &c,
                         &diag)
          == DDNN_ERR_DUPLICATE);
    CHECK_STR_CONTAINS(diag.message, "'run.seed' is varied twice");
    CHECK(parse_campaign("<vary name=\"p\"><case name=\"a\"><set parameter=\"run.seed\" "
                         "value=\"3\"/></case></vary><vary parameter=\"run.seed\" "
                         "values=\"1 2\"/>",
                         &c,
                         &diag)
          == DDNN_ERR_DUPLICATE);
    CHECK_STR_CONTAINS(diag.message, "'run.seed' is varied twice");
    CHECK(parse_campaign("<vary name=\"p\"/>", &c, &diag) == DDNN_ERR_EMPTY);
    CHECK(parse_campaign("<vary name=\"p\" parameter=\"run.seed\" values=\"1\"/>", &c, &diag)
          == DDNN_ERR_SYNTAX);
    CHECK(parse_campaign("<vary parameter=\"run.seed\"/>", &c, &diag) == DDNN_ERR_SYNTAX);
    CHECK(parse_campaign("<vary name=\"p\"><case name=\"a\"><set parameter=\"training.nothing\" "
                         "value=\"1\"/></case></vary>",
                         &c,
                         &diag)
          == DDNN_ERR_MISSING);
    /* A value that does not parse is named by the run that uses it. */
    CHECK(parse_campaign("<vary name=\"p\"><case name=\"a\"><set parameter=\"run.seed\" "
                         "value=\"x\"/></case></vary>",
                         &c,
                         &diag)
          == DDNN_OK);
    CHECK(ddnn_campaign_point(c, 0, &s, name, sizeof name, &diag) != DDNN_OK);
    CHECK_STR_CONTAINS(diag.message, "case 'a' of <vary name=\"p\">");
    ddnn_campaign_free(c);
}

/* Two runs never share a folder; a grid's size never wraps; names are never cut. */
static void
campaign_runs_have_distinct_reversible_names(void)
{
    ddnn_campaign* c = NULL;
    ddnn_diag diag;
    ddnn_scenario s;
    char name[256], small[20];
    CHECK(parse_campaign("<vary parameter=\"training.rcp\" values=\"1 1 2\"/>", &c, &diag)
          == DDNN_ERR_DUPLICATE);
    CHECK_STR_CONTAINS(diag.message, "lists '1' twice");
    CHECK(parse_campaign("<vary parameter=\"run.seed\" values=\"1\"/>"
                         "<vary parameter=\"run.seed\" values=\"2\"/>",
                         &c,
                         &diag)
          == DDNN_ERR_DUPLICATE);
    /* 2^57 runs: eight dimensions of 128 values would wrap size_t arithmetic in 2^56 steps. */
    {
        char vary[4096] = "", values[1024] = "";
        int d, v;
        size_t used = 0;
        for (v = 1; v <= 200; v++)
        {
            used += (size_t)snprintf(
                values + used, sizeof values - used, "%s%d", v > 1 ? " " : "", v);
        }
        used = 0;
        for (d = 0; d < 4; d++)
        {
            static const char* params[]
                = {"run.seed", "training.iterations", "topology.workers", "training.fusion-bytes"};
            used += (size_t)snprintf(vary + used,
                                     sizeof vary - used,
                                     "<vary parameter=\"%s\" values=\"%s\"/>",
                                     params[d],
                                     values);
        }
        CHECK(parse_campaign(vary, &c, &diag) == DDNN_ERR_TOO_LARGE);
        CHECK_STR_CONTAINS(diag.message, "more than 100000000 runs");
    }
    /* Paths that a lossy name would merge: a/thesis.csv and a-thesis.csv. */
    CHECK(parse_campaign("<vary parameter=\"training.profile\" values=\"a/thesis.csv a-thesis.csv "
                         "a_b=c\"/>",
                         &c,
                         &diag)
          == DDNN_OK);
    if (c)
    {
        char first[256];
        ddnn_campaign_point(c, 0, &s, first, sizeof first, &diag);
        ddnn_campaign_point(c, 1, &s, name, sizeof name, &diag);
        CHECK(strcmp(first, "profile=a%2Fthesis.csv") == 0);
        CHECK(strcmp(name, "profile=a-thesis.csv") == 0);
        ddnn_campaign_point(c, 2, &s, name, sizeof name, &diag);
        CHECK(strcmp(name, "profile=a%5Fb%3Dc") == 0);
        memset(&diag, 0, sizeof diag);
        CHECK(ddnn_campaign_point(c, 0, &s, small, sizeof small, &diag) == DDNN_ERR_TOO_LARGE);
        CHECK_STR_CONTAINS(diag.message, "would pass 19 characters");
        ddnn_campaign_free(c);
    }
}

/*
 * Several <training> elements are several jobs: a later job starts from the first job's values,
 * "training[K].x" addresses job K, and the file written back holds every job.
 */
static void
several_jobs(void)
{
    ddnn_scenario s, back;
    ddnn_diag diag;
    char* text;
    size_t len;
    const char* two = "<scenario version=\"1\">\n"
                      "  <topology workers=\"8\"/>\n"
                      "  <training workers=\"4\" rcp=\"8\" queue=\"priority\"/>\n"
                      "  <run duration-s=\"1\"/>\n"
                      "  <training rcp=\"2\" start-s=\"0.25\" band=\"2\" placement=\"4,5,6,7\"/>\n"
                      "</scenario>\n";
    CHECK(parse(&s, two, &diag) == DDNN_OK);
    CHECK_U64(s.job_count, 2);
    CHECK_U64(s.jobs[0].workers, 4);
    CHECK_NEAR(s.jobs[0].rcp, 8, 0);
    CHECK_NEAR(s.jobs[0].start_s, 0, 0);
    CHECK(strcmp(s.jobs[0].band, "scenario") == 0);
    /* job 2: its own values, the first job's for the rest */
    CHECK_NEAR(s.jobs[1].rcp, 2, 0);
    CHECK_NEAR(s.jobs[1].start_s, 0.25, 0);
    CHECK(strcmp(s.jobs[1].band, "2") == 0);
    CHECK(strcmp(s.jobs[1].placement, "4,5,6,7") == 0);
    CHECK_U64(s.jobs[1].workers, 4);
    CHECK(strcmp(s.jobs[1].queue, "priority") == 0);
    /* by name */
    CHECK(ddnn_scenario_set(&s, "training[2].rcp", "3") == DDNN_OK);
    CHECK_NEAR(s.jobs[1].rcp, 3, 0);
    CHECK_NEAR(s.jobs[0].rcp, 8, 0);
    CHECK(ddnn_scenario_set(&s, "training[1].rcp", "5") == DDNN_OK);
    CHECK_NEAR(s.jobs[0].rcp, 5, 0);
    CHECK(ddnn_scenario_set(&s, "training[3].rcp", "5") == DDNN_ERR_RANGE); /* no job 3 */
    CHECK(ddnn_scenario_set(&s, "training[0].rcp", "5") == DDNN_ERR_RANGE);
    CHECK(ddnn_scenario_set(&s, "training[9].rcp", "5") == DDNN_ERR_RANGE);
    CHECK(ddnn_scenario_set(&s, "run[2].seed", "5") == DDNN_ERR_MISSING);
    CHECK(ddnn_scenario_set(&s, "training[x].rcp", "5") == DDNN_ERR_MISSING);
    CHECK(ddnn_scenario_set(&s, "training[2]rcp", "5") == DDNN_ERR_MISSING);
    /* the check names the job at fault */
    {
        const ddnn_param* bad = NULL;
        back = s;
        back.jobs[1].rcp = -1;
        CHECK(ddnn_scenario_check(&back, &bad, &diag) == DDNN_ERR_RANGE);
        CHECK_STR_CONTAINS(diag.message, "job 2: expected");
        back.job_count = 0;
        CHECK(ddnn_scenario_check(&back, &bad, &diag) == DDNN_ERR_RANGE);
    }
    /* written and read back: both jobs, exactly */
    CHECK(ddnn_scenario_write(&s, &text, &len) == DDNN_OK);
    ddnn_scenario_defaults(&back);
    CHECK(ddnn_scenario_parse(&back, text, len, &diag) == DDNN_OK);
    CHECK(memcmp(&s, &back, sizeof s) == 0);
    free(text);
    /* counts of elements */
    expect_error("<scenario version=\"1\"><topology workers=\"4\"/><run duration-s=\"1\"/>"
                 "<background/><background/></scenario>",
                 1,
                 "element 'background' given 2 times, expected at most 1");
    expect_error("<scenario version=\"1\"><topology workers=\"4\"/>\n<training/>"
                 "</scenario>",
                 1,
                 "element 'run' given 0 times, expected 1");
    {
        char nine[2048]
            = "<scenario version=\"1\"><topology workers=\"4\"/><run duration-s=\"1\"/>";
        int k;
        for (k = 0; k < 9; k++)
        {
            strcat(nine, "<training/>");
        }
        strcat(nine, "</scenario>");
        expect_error(nine, 1, "element 'training' given 9 times, expected at most 8");
    }
    /* a campaign varies one job; its run names say which */
    {
        ddnn_campaign* c = NULL;
        char name[256];
        const char* campaign
            = "<campaign version=\"1\"><scenario version=\"1\"><topology workers=\"8\"/>"
              "<training workers=\"4\"/><training placement=\"4,5,6,7\"/>"
              "<run duration-s=\"1\"/></scenario>"
              "<vary parameter=\"training[2].rcp\" values=\"2 4\"/>"
              "<vary parameter=\"training.rcp\" values=\"8\"/></campaign>";
        memset(&diag, 0, sizeof diag);
        CHECK(ddnn_campaign_parse(&c, campaign, strlen(campaign), &diag) == DDNN_OK);
        if (c)
        {
            CHECK(ddnn_campaign_point(c, 1, &s, name, sizeof name, &diag) == DDNN_OK);
            CHECK(strcmp(name, "job2-rcp=4_rcp=8") == 0);
            CHECK_U64(s.job_count, 2);
            CHECK_NEAR(s.jobs[1].rcp, 4, 0);
            CHECK_NEAR(s.jobs[0].rcp, 8, 0);
            ddnn_campaign_free(c);
        }
        CHECK(parse_campaign("<vary parameter=\"training[2].rcp\" values=\"2\"/>", &c, &diag)
              == DDNN_ERR_RANGE);
        CHECK_STR_CONTAINS(diag.message,
                           "names 'training[2].rcp', but the scenario has 1 "
                           "training job");
        CHECK(parse_campaign("<vary parameter=\"run[2].seed\" values=\"2\"/>", &c, &diag)
              == DDNN_ERR_MISSING);
    }
}

int
main(int argc, char** argv)
{
    if (argc > 1)
    {
        data_dir = argv[1];
    }
    RUN(reads_values_and_keeps_defaults);
    RUN(write_then_read_is_exact);
    RUN(rejects_bad_documents);
    RUN(refuses_dtds_entities_and_huge_input);
    RUN(sets_values_by_name);
    RUN(expands_the_thesis_grid);
    RUN(thesis_defaults_scenario);
    RUN(campaign_runs_have_distinct_reversible_names);
    RUN(campaign_cases_set_several_parameters);
    RUN(several_jobs);
    return UNIT_REPORT();
}
