/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the scenario's parameter table: strict parsing and ranges with messages that
 * say what was expected, defaults in range, and the schema generated from the table
 * (ddnn-scenario-schema.c) holding every row with its base type, range and choices.
 */
#include "ddnn-scenario-params.h"
#include "ddnn-scenario-schema.h"
#include "ddnn-transport-profile.h"
#include "ddnn-unit.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
expect_rejected(const char* flag, const char* text, int code, const char* message)
{
    ddnn_scenario s;
    ddnn_diag diag = {0};
    const ddnn_param* p = ddnn_scenario_param_by_flag(flag);
    CHECK(p != NULL);
    if (!p)
    {
        return;
    }
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_set_param(&s, p, text, &diag) == code);
    CHECK_STR_CONTAINS(diag.message, message);
}

/* The catalogue's wraps and blames: each refused before any conversion, naming the range. */
static void
refuses_values_outside_their_type_or_range(void)
{
    expect_rejected(
        "workers", "-1", DDNN_ERR_SYNTAX, "expected a whole number in [2, 250], got '-1'");
    expect_rejected("workers", "4294967298", DDNN_ERR_RANGE, "in [2, 250]");
    expect_rejected("iterations", "-1", DDNN_ERR_SYNTAX, "got '-1'");
    expect_rejected("iterations", "4294967295", DDNN_ERR_RANGE, "in [0, 1000000]");
    expect_rejected("computeMs", "1e30", DDNN_ERR_RANGE, "a number in [0, 1e+09] (ms), got '1e30'");
    expect_rejected("rcp", "1e30", DDNN_ERR_RANGE, "got '1e30'");
    expect_rejected("durationS", "0", DDNN_ERR_RANGE, "a number in (0, 100000] (s)");
    expect_rejected("durationS", "1e30", DDNN_ERR_RANGE, "(0, 100000]");
    expect_rejected("flowRate", "1e30", DDNN_ERR_RANGE, "(flows/s per server)");
    expect_rejected("flowRate", "nan", DDNN_ERR_SYNTAX, "got 'nan'");
    expect_rejected("utilIntervalMs", "1e-9", DDNN_ERR_RANGE, "[0.01, 1e+06] (ms)");
    expect_rejected("fusionBytes", "0", DDNN_ERR_RANGE, "[1, 9007199254740992]");
    expect_rejected("queue", "lifo", DDNN_ERR_RANGE, "one of fifo, priority, got 'lifo'");
    expect_rejected("barrier", "maybe", DDNN_ERR_SYNTAX, "true or false");
    expect_rejected("seed", "0", DDNN_ERR_RANGE, "[1, 4294944442]");
    expect_rejected("seed", " 1", DDNN_ERR_SYNTAX, "got ' 1'");
}

static void
defaults_are_in_range_and_round_trip(void)
{
    ddnn_scenario s, t;
    ddnn_diag diag = {0};
    const ddnn_param* bad = NULL;
    size_t i;
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_check(&s, &bad, &diag) == DDNN_OK);
    CHECK(s.workers == 8 && s.jobs[0].rcp == 16 && strcmp(s.training_priority, "low") == 0);
    memset(&t, 0, sizeof t);
    t.job_count = s.job_count; /* not a parameter: the number of <training> elements */
    for (i = 0; i < ddnn_scenario_param_count(); i++)
    {
        char text[DDNN_PATH_MAX + 32];
        const ddnn_param* p = ddnn_scenario_param(i);
        CHECK(ddnn_scenario_format_param(&s, p, text, sizeof text) == DDNN_OK);
        CHECK(ddnn_scenario_set_param(&t, p, text, &diag) == DDNN_OK);
        CHECK(ddnn_scenario_param_by_flag(p->flag) == p);
    }
    CHECK(memcmp(&s, &t, sizeof s) == 0);
    s.workers = 1; /* set by code, out of range: found by the check */
    CHECK(ddnn_scenario_check(&s, &bad, &diag) == DDNN_ERR_RANGE);
    CHECK(bad == ddnn_scenario_param_by_flag("workers"));
}

/* The value of attribute `name` of the first node `xpath` selects, or NULL (xmlFree it). */
static xmlChar*
xsd_value(xmlXPathContextPtr ctx, const char* xpath, const char* name)
{
    xmlXPathObjectPtr found = xmlXPathEvalExpression((const xmlChar*)xpath, ctx);
    xmlChar* value = NULL;
    if (found && found->nodesetval && found->nodesetval->nodeNr > 0)
    {
        value = xmlGetProp(found->nodesetval->nodeTab[0], (const xmlChar*)name);
    }
    xmlXPathFreeObject(found);
    return value;
}

static int
xsd_count(xmlXPathContextPtr ctx, const char* xpath)
{
    xmlXPathObjectPtr found = xmlXPathEvalExpression((const xmlChar*)xpath, ctx);
    int n = found && found->nodesetval ? found->nodesetval->nodeNr : 0;
    xmlXPathFreeObject(found);
    return n;
}

/* Compares a numeric facet of the XSD with the table's bound. */
static void
check_facet(xmlXPathContextPtr ctx,
            const char* restriction,
            const char* facet,
            double expected,
            const char* what)
{
    char xpath[512];
    xmlChar* value;
    snprintf(xpath, sizeof xpath, "%s/xs:%s", restriction, facet);
    value = xsd_value(ctx, xpath, "value");
    if (!value || fabs(strtod((const char*)value, NULL) - expected) > 1e-9 * fabs(expected))
    {
        unit_checks_failed++;
        fprintf(stderr,
                "%s: the schema's %s is %s, the table's %g\n",
                what,
                facet,
                value ? (const char*)value : "absent",
                expected);
    }
    xmlFree(value);
}

static void
schema_agrees_with_the_table(void)
{
    char* text = NULL;
    size_t len = 0;
    xmlDocPtr doc;
    xmlXPathContextPtr ctx;
    size_t i;
    int attributes = 0;
    CHECK(ddnn_scenario_schema(&text, &len) == DDNN_OK);
    CHECK_U64(strlen(text), len);
    doc = xmlReadMemory(text, (int)len, "schema.xsd", NULL, XML_PARSE_NONET);
    free(text);
    CHECK(doc != NULL);
    if (!doc)
    {
        return;
    }
    ctx = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(
        ctx, (const xmlChar*)"xs", (const xmlChar*)"http://www.w3.org/2001/XMLSchema");
    for (i = 0; i < ddnn_scenario_param_count(); i++)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        char attribute[256], restriction[512], pattern[600], what[96];
        xmlChar* type;
        xmlChar* base;
        const char* expected_base = NULL;
        snprintf(what, sizeof what, "%s.%s", p->element, p->attribute);
        snprintf(attribute,
                 sizeof attribute,
                 "/xs:schema/xs:complexType[@name='%s']/xs:attribute[@name='%s']",
                 p->element,
                 p->attribute);
        if (xsd_count(ctx, attribute) != 1)
        {
            unit_checks_failed++;
            fprintf(stderr, "%s: not in the schema\n", what);
            continue;
        }
        type = xsd_value(ctx, attribute, "type");
        if (type && strncmp((const char*)type, "xs:", 3) != 0)
        {
            snprintf(restriction,
                     sizeof restriction,
                     "/xs:schema/xs:simpleType[@name='%s']/xs:restriction",
                     (const char*)type);
        }
        else
        {
            snprintf(restriction, sizeof restriction, "%s/xs:simpleType/xs:restriction", attribute);
        }
        base = type && strncmp((const char*)type, "xs:", 3) == 0
                   ? xmlStrdup(type)
                   : xsd_value(ctx, restriction, "base");
        snprintf(pattern, sizeof pattern, "%s/xs:pattern", restriction);
        switch (p->type)
        {
            case DDNN_PARAM_U32:
                expected_base = "xs:unsignedInt";
                break;
            case DDNN_PARAM_U64:
                expected_base = "xs:unsignedLong";
                break;
            case DDNN_PARAM_DOUBLE:
                expected_base = "xs:double";
                break;
            case DDNN_PARAM_BOOL:
                expected_base = "xs:boolean";
                break;
            case DDNN_PARAM_TEXT:
                expected_base = "xs:string";
                break;
        }
        if (!base || strcmp((const char*)base, expected_base) != 0)
        {
            unit_checks_failed++;
            fprintf(stderr,
                    "%s: the schema's type is %s, the table's %s\n",
                    what,
                    base ? (const char*)base : "absent",
                    expected_base);
        }
        if (p->type == DDNN_PARAM_U32 || p->type == DDNN_PARAM_U64 || p->type == DDNN_PARAM_DOUBLE)
        {
            check_facet(
                ctx, restriction, p->min_exclusive ? "minExclusive" : "minInclusive", p->min, what);
            check_facet(ctx, restriction, "maxInclusive", p->max, what);
        }
        if (p->type == DDNN_PARAM_TEXT && p->choices && xsd_count(ctx, pattern) == 1)
        {
            /* Choices from a host's registry: the schema checks the name's form and length. */
            check_facet(ctx, restriction, "maxLength", (double)(p->size - 1), what);
        }
        else if (p->type == DDNN_PARAM_TEXT && p->choices)
        {
            char xpath[600], choices[128] = "";
            xmlXPathObjectPtr found;
            int k;
            snprintf(xpath, sizeof xpath, "%s/xs:enumeration", restriction);
            found = xmlXPathEvalExpression((const xmlChar*)xpath, ctx);
            for (k = 0; found && found->nodesetval && k < found->nodesetval->nodeNr; k++)
            {
                xmlChar* v = xmlGetProp(found->nodesetval->nodeTab[k], (const xmlChar*)"value");
                snprintf(choices + strlen(choices),
                         sizeof choices - strlen(choices),
                         "%s%s",
                         k ? "|" : "",
                         v ? (const char*)v : "");
                xmlFree(v);
            }
            xmlXPathFreeObject(found);
            if (strcmp(choices, p->choices) != 0)
            {
                unit_checks_failed++;
                fprintf(
                    stderr, "%s: the schema allows %s, the table %s\n", what, choices, p->choices);
            }
        }
        if (p->type == DDNN_PARAM_TEXT && !p->choices && strcmp(p->attribute, "data-rate") != 0)
        {
            check_facet(ctx, restriction, "maxLength", (double)(p->size - 1), what);
        }
        xmlFree(type);
        xmlFree(base);
    }
    /* ... and the schema has no parameter the table lacks. */
    {
        xmlXPathObjectPtr found = xmlXPathEvalExpression(
            (const xmlChar*)"/xs:schema/xs:complexType[@name!='scenario' and @name!='vary' and "
                            "@name!='campaign' and @name!='case' and @name!='set' and "
                            "@name!='ns3-default']/xs:attribute",
            ctx);
        int k;
        for (k = 0; found && found->nodesetval && k < found->nodesetval->nodeNr; k++)
        {
            xmlNodePtr node = found->nodesetval->nodeTab[k];
            xmlChar* element = xmlGetProp(node->parent, (const xmlChar*)"name");
            xmlChar* name = xmlGetProp(node, (const xmlChar*)"name");
            char full[256];
            snprintf(full, sizeof full, "%s.%s", (const char*)element, (const char*)name);
            if (!ddnn_scenario_param_named(full))
            {
                unit_checks_failed++;
                fprintf(stderr, "%s: in the schema but not in the table\n", full);
            }
            attributes++;
            xmlFree(element);
            xmlFree(name);
        }
        xmlXPathFreeObject(found);
    }
    CHECK_U64(attributes, ddnn_scenario_param_count());
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
}

/* Values that would be taken as another one: hexadecimal, 2^53 + 1 through a double, a time
 * that ns-3 rounds to 0 ns, text an XML attribute cannot hold. */
static void
refuses_what_would_be_read_otherwise(void)
{
    ddnn_scenario s;
    ddnn_diag diag = {0};
    expect_rejected("computeMs", "0x10", DDNN_ERR_SYNTAX, "got '0x10'");
    expect_rejected("flowRate", "0X1P4", DDNN_ERR_SYNTAX, "got '0X1P4'");
    expect_rejected("flowRate", "infinity", DDNN_ERR_SYNTAX, "got 'infinity'");
    expect_rejected("fusionBytes", "9007199254740993", DDNN_ERR_RANGE, "9007199254740992]");
    expect_rejected("durationS", "1e-10", DDNN_ERR_RANGE, "got '1e-10', below 1 ns");
    expect_rejected("computeMs", "1e-7", DDNN_ERR_RANGE, "below 1 ns");
    expect_rejected("delayUs", "0.0001", DDNN_ERR_RANGE, "below 1 ns");
    expect_rejected("profile", "a\nb.csv", DDNN_ERR_SYNTAX, "got 'a?b.csv', which holds a control");
    expect_rejected("cdf", "caf\xe9.csv", DDNN_ERR_SYNTAX, "got 'caf?.csv', which holds");
    expect_rejected("cdf", "\xc0\xaf.csv", DDNN_ERR_SYNTAX, "not UTF-8");         /* overlong '/' */
    expect_rejected("cdf", "\xc2\x85.csv", DDNN_ERR_SYNTAX, "control character"); /* C1 */
    ddnn_scenario_defaults(&s);
    CHECK(ddnn_scenario_set_param(
              &s, ddnn_scenario_param_by_flag("fusionBytes"), "9007199254740992", &diag)
          == DDNN_OK);
    CHECK(ddnn_scenario_set_param(&s, ddnn_scenario_param_by_flag("durationS"), "1e-9", &diag)
          == DDNN_OK);
    CHECK(ddnn_scenario_set_param(
              &s, ddnn_scenario_param_by_flag("profile"), "/données/modèle 1.csv", &diag)
          == DDNN_OK);
    CHECK(ddnn_scenario_set_ns3_default(&s, "ns3::TcpSocket::SegmentSize", "1000", &diag)
          == DDNN_OK);
    CHECK(ddnn_scenario_set_ns3_default(&s, "ns3::TcpSocket::SegmentSize", "536", &diag)
          == DDNN_OK);
    CHECK(s.ns3_default_count == 1 && strcmp(s.ns3_defaults[0].value, "536") == 0);
    CHECK(ddnn_scenario_set_ns3_default(&s, "TcpSocket::SegmentSize", "1", &diag)
          == DDNN_ERR_SYNTAX);
}

/*
 * The transport profiles (the module's ddnn-transport-profile.c) and the <transport> rows agree:
 * the profile row offers exactly the profiles, every profile gives every <transport> row a
 * value the row accepts, and the rows' defaults are the tuned profile's.
 */
static void
transport_profiles_agree_with_the_rows(void)
{
    const ddnn_param* row = ddnn_scenario_param_named("transport.profile");
    char names[256] = "";
    size_t i, k;
    CHECK(row != NULL);
    for (k = 0; ddnn_transport_profile_name(k); k++)
    {
        strcat(names, k ? "|" : "");
        strcat(names, ddnn_transport_profile_name(k));
    }
    CHECK(row && strcmp(row->choices, names) == 0);
    CHECK(strcmp(ddnn_param_default(row), DDNN_TRANSPORT_DEFAULT_PROFILE) == 0);
    CHECK(ddnn_transport_profile_value("no-such-profile", "segment-size") == NULL);
    CHECK(ddnn_transport_profile_value("thesis", "no-such-attribute") == NULL);
    for (k = 0; ddnn_transport_profile_name(k); k++)
    {
        ddnn_scenario s;
        ddnn_diag diag = {0};
        ddnn_scenario_defaults(&s);
        CHECK(ddnn_scenario_set_param(&s, row, ddnn_transport_profile_name(k), &diag) == DDNN_OK);
        for (i = 0; i < ddnn_scenario_param_count(); i++)
        {
            const ddnn_param* p = ddnn_scenario_param(i);
            const char* value;
            if (strcmp(p->element, "transport") != 0 || p == row)
                continue;
            value = ddnn_transport_profile_value(ddnn_transport_profile_name(k), p->attribute);
            CHECK(value != NULL);
            CHECK(value && ddnn_scenario_set_param(&s, p, value, &diag) == DDNN_OK);
            if (k == 0)
                CHECK(value && strcmp(ddnn_param_default(p), value) == 0);
        }
    }
}

/* A host's registries may name only choices that the value's field can hold. */
static void
registered_choices_fit_their_field(void)
{
    const ddnn_param* p = ddnn_scenario_param_named("topology.queue-disc");
    char before[DDNN_PARAM_CHOICES_MAX];
    char longest[64];
    CHECK(p != NULL && p->size < sizeof longest);
    if (!p || p->size >= sizeof longest)
        return;
    snprintf(before, sizeof before, "%s", p->choices);
    memset(longest, 'q', p->size - 1);
    longest[p->size - 1] = '\0';
    char list[256];
    snprintf(list, sizeof list, "pfifo-fast|%s", longest);
    CHECK(ddnn_scenario_param_set_choices("topology.queue-disc", list) == DDNN_OK);
    snprintf(list, sizeof list, "pfifo-fast|%sq|prio4", longest);
    CHECK(ddnn_scenario_param_set_choices("topology.queue-disc", list) == DDNN_ERR_TOO_LARGE);
    CHECK(ddnn_scenario_param_set_choices("topology.queue-disc", before) == DDNN_OK);
}

int
main(void)
{
    RUN(refuses_values_outside_their_type_or_range);
    RUN(refuses_what_would_be_read_otherwise);
    RUN(defaults_are_in_range_and_round_trip);
    RUN(transport_profiles_agree_with_the_rows);
    RUN(registered_choices_fit_their_field);
    RUN(schema_agrees_with_the_table);
    xmlCleanupParser();
    return UNIT_REPORT();
}
