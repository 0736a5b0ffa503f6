/* SPDX-License-Identifier: GPL-2.0-only */
/* Campaigns: a base scenario and the <vary> dimensions whose product is the grid of runs. A
 * dimension is one parameter's values, or named cases that each set several parameters. */
#include "ddnn-scenario-params.h"
#include "ddnn-scenario-xml.h"
#include "ddnn-scenario.h"
#include "ns3/ddnn-csv.h"

#include <libxml/tree.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMENSIONS 8

typedef struct
{
    char parameter[64];
    char* value;
} case_set;

typedef struct
{
    char parameter[64]; /* <vary parameter>; "" for a dimension of cases */
    char name[64];      /* <vary name> of a dimension of cases */
    char** values;      /* the parameter's values, or the cases' names */
    size_t count;
    case_set** sets; /* cases: per case, what it sets */
    size_t* set_counts;
} dimension;

struct ddnn_campaign
{
    ddnn_scenario base;
    dimension dims[MAX_DIMENSIONS];
    size_t dim_count;
    char reference[DDNN_PATH_MAX]; /* <reference file>: published figures to compare with */
};

void
ddnn_campaign_free(ddnn_campaign* c)
{
    size_t d, v;
    if (!c)
    {
        return;
    }
    for (d = 0; d < c->dim_count; d++)
    {
        for (v = 0; v < c->dims[d].count; v++)
        {
            free(c->dims[d].values[v]);
            if (c->dims[d].sets)
            {
                size_t k;
                for (k = 0; k < c->dims[d].set_counts[v]; k++)
                {
                    free(c->dims[d].sets[v][k].value);
                }
                free(c->dims[d].sets[v]);
            }
        }
        free(c->dims[d].values);
        free(c->dims[d].sets);
        free(c->dims[d].set_counts);
    }
    free(c);
}

/* Splits a whitespace-separated list into dim->values. */
static int
split_values(dimension* dim, const char* text)
{
    const char* p = text;
    while (*p)
    {
        const char* start;
        char** grown;
        while (*p && isspace((unsigned char)*p))
        {
            p++;
        }
        if (!*p)
        {
            break;
        }
        start = p;
        while (*p && !isspace((unsigned char)*p))
        {
            p++;
        }
        grown = realloc(dim->values, (dim->count + 1) * sizeof *grown);
        if (!grown)
        {
            return DDNN_ERR_NOMEM;
        }
        dim->values = grown;
        dim->values[dim->count] = malloc((size_t)(p - start) + 1);
        if (!dim->values[dim->count])
        {
            return DDNN_ERR_NOMEM;
        }
        memcpy(dim->values[dim->count], start, (size_t)(p - start));
        dim->values[dim->count][p - start] = '\0';
        dim->count++;
    }
    return DDNN_OK;
}

/* Whether `parameter` names a value of the base scenario: a parameter, and a job it has. */
static int
check_parameter(const ddnn_scenario* base, const char* parameter, long line, ddnn_diag* diag)
{
    const ddnn_param* p;
    uint32_t job;
    int rc = ddnn_scenario_param_address(parameter, &p, &job);
    if (rc == DDNN_ERR_MISSING)
    {
        return ddnn_diag_set(diag,
                             rc,
                             line,
                             "parameter",
                             "<vary> names '%s', which is no element.attribute (or "
                             "training[K].attribute) of a scenario",
                             parameter);
    }
    if (rc != DDNN_OK || job >= base->job_count)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_RANGE,
                             line,
                             "parameter",
                             "<vary> names '%s', but the scenario has %u training job%s",
                             parameter,
                             base->job_count,
                             base->job_count == 1 ? "" : "s");
    }
    return DDNN_OK;
}

/* A value of a dimension as the scenario holds it once parsed ("01" and "1", "4.0" and
 * "4e0" alike), or as written when it does not parse (ddnn_campaign_point then says why). */
typedef struct
{
    char* parsed;
    size_t index;
} parsed_value;

static int
by_parsed_then_index(const void* a, const void* b)
{
    const parsed_value* x = a;
    const parsed_value* y = b;
    int c = strcmp(x->parsed, y->parsed);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * A value twice in one <vary> (as parsed: "1" and "01" are one seed), or a parameter varied
 * twice, would give two runs the same scenario: refused.
 */
static int
check_dimension(const ddnn_campaign* c, const dimension* dim, long line, ddnn_diag* diag)
{
    size_t d, i;
    const ddnn_param* p = NULL;
    uint32_t job = 0;
    parsed_value* values;
    ddnn_scenario* scratch;
    int rc = DDNN_OK;
    for (d = 0; d + 1 < c->dim_count; d++)
    {
        if (strcmp(c->dims[d].parameter, dim->parameter) == 0)
        {
            return ddnn_diag_set(diag,
                                 DDNN_ERR_DUPLICATE,
                                 line,
                                 "parameter",
                                 "'%s' is varied twice",
                                 dim->parameter);
        }
    }
    (void)ddnn_scenario_param_address(dim->parameter, &p, &job); /* checked before */
    values = calloc(dim->count, sizeof *values);
    if (!values)
    {
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, line, "values", "out of memory");
    }
    scratch = malloc(sizeof *scratch); /* one copy for every value: each sets the same one */
    if (!scratch)
    {
        free(values);
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, line, "values", "out of memory");
    }
    *scratch = c->base;
    for (i = 0; i < dim->count && rc == DDNN_OK; i++)
    {
        char text[DDNN_PATH_MAX + 32];
        values[i].index = i;
        if (ddnn_scenario_set_job_param(scratch, p, job, dim->values[i], NULL) != DDNN_OK
            || ddnn_scenario_format_job_param(scratch, p, job, text, sizeof text) != DDNN_OK)
        {
            snprintf(text, sizeof text, "%s", dim->values[i]);
        }
        values[i].parsed = malloc(strlen(text) + 1); /* strdup is not C11 */
        if (values[i].parsed)
        {
            strcpy(values[i].parsed, text);
        }
        if (!values[i].parsed)
        {
            rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, line, "values", "out of memory");
        }
    }
    if (rc == DDNN_OK)
    {
        /* Sorted, equal values are neighbours: n log n, however long the list. */
        qsort(values, dim->count, sizeof *values, by_parsed_then_index);
        for (i = 1; i < dim->count && rc == DDNN_OK; i++)
        {
            const char* first = dim->values[values[i - 1].index];
            const char* second = dim->values[values[i].index];
            if (strcmp(values[i - 1].parsed, values[i].parsed) != 0)
            {
                continue;
            }
            if (strcmp(first, second) == 0)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_DUPLICATE,
                                   line,
                                   "values",
                                   "<vary parameter=\"%s\"> lists '%.60s' twice",
                                   dim->parameter,
                                   first);
            }
            else
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_DUPLICATE,
                                   line,
                                   "values",
                                   "<vary parameter=\"%s\"> lists '%.40s' and '%.40s', the same "
                                   "value",
                                   dim->parameter,
                                   first,
                                   second);
            }
        }
    }
    for (i = 0; i < dim->count; i++)
    {
        free(values[i].parsed);
    }
    free(values);
    free(scratch);
    return rc;
}

/* A copy of `text` (strdup is not C11). */
static char*
copy_text(const char* text)
{
    char* copy = malloc(strlen(text) + 1);
    if (copy)
    {
        strcpy(copy, text);
    }
    return copy;
}

/* Whether a parameter is set by a dimension other than `self` (a <vary parameter> or a case). */
static int
varied_elsewhere(const ddnn_campaign* c, const dimension* self, const char* parameter)
{
    size_t d, v, k;
    for (d = 0; d < c->dim_count; d++)
    {
        const dimension* other = &c->dims[d];
        if (other == self)
        {
            continue;
        }
        if (strcmp(other->parameter, parameter) == 0)
        {
            return 1;
        }
        for (v = 0; other->sets && v < other->count; v++)
        {
            for (k = 0; k < other->set_counts[v]; k++)
            {
                if (strcmp(other->sets[v][k].parameter, parameter) == 0)
                {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/*
 * <vary name="N"> with <case name="C"><set parameter="P" value="V"/>...</case>...: the cases,
 * each named once, each setting parameters of the base scenario once (the schema bounds the
 * counts). What the values mean is checked per run (ddnn_campaign_point).
 */
static int
read_cases(ddnn_campaign* c, dimension* dim, xmlNodePtr vary, ddnn_diag* diag)
{
    xmlNodePtr node, set;
    size_t cases = 0, v, k;
    int rc = DDNN_OK;
    for (node = vary->children; node; node = node->next)
    {
        cases += node->type == XML_ELEMENT_NODE;
    }
    if (cases == 0)
    {
        return ddnn_diag_set(diag,
                             DDNN_ERR_EMPTY,
                             xmlGetLineNo(vary),
                             "case",
                             "<vary name=\"%s\"> has no <case>",
                             dim->name);
    }
    dim->values = calloc(cases, sizeof *dim->values);
    dim->sets = calloc(cases, sizeof *dim->sets);
    dim->set_counts = calloc(cases, sizeof *dim->set_counts);
    if (!dim->values || !dim->sets || !dim->set_counts)
    {
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, xmlGetLineNo(vary), "case", "out of memory");
    }
    for (node = vary->children; node && rc == DDNN_OK; node = node->next)
    {
        xmlChar* name;
        size_t sets = 0;
        if (node->type != XML_ELEMENT_NODE)
        {
            continue;
        }
        v = dim->count++;
        name = xmlGetProp(node, (const xmlChar*)"name");
        dim->values[v] = copy_text((const char*)name);
        xmlFree(name);
        for (set = node->children; set; set = set->next)
        {
            sets += set->type == XML_ELEMENT_NODE;
        }
        dim->sets[v] = calloc(sets ? sets : 1, sizeof **dim->sets);
        if (!dim->values[v] || !dim->sets[v])
        {
            return ddnn_diag_set(diag, DDNN_ERR_NOMEM, xmlGetLineNo(node), "case", "out of memory");
        }
        for (k = 0; k < v; k++)
        {
            if (strcmp(dim->values[k], dim->values[v]) == 0)
            {
                return ddnn_diag_set(diag,
                                     DDNN_ERR_DUPLICATE,
                                     xmlGetLineNo(node),
                                     "name",
                                     "<vary name=\"%s\"> has two cases named '%.60s'",
                                     dim->name,
                                     dim->values[v]);
            }
        }
        for (set = node->children; set && rc == DDNN_OK; set = set->next)
        {
            xmlChar *parameter, *value;
            case_set* one;
            if (set->type != XML_ELEMENT_NODE)
            {
                continue;
            }
            one = &dim->sets[v][dim->set_counts[v]++];
            parameter = xmlGetProp(set, (const xmlChar*)"parameter");
            value = xmlGetProp(set, (const xmlChar*)"value");
            snprintf(one->parameter, sizeof one->parameter, "%s", (const char*)parameter);
            one->value = copy_text((const char*)value);
            xmlFree(parameter);
            xmlFree(value);
            if (!one->value)
            {
                return ddnn_diag_set(
                    diag, DDNN_ERR_NOMEM, xmlGetLineNo(set), "value", "out of memory");
            }
            rc = check_parameter(&c->base, one->parameter, xmlGetLineNo(set), diag);
            for (k = 0; rc == DDNN_OK && k + 1 < dim->set_counts[v]; k++)
            {
                if (strcmp(dim->sets[v][k].parameter, one->parameter) == 0)
                {
                    rc = ddnn_diag_set(diag,
                                       DDNN_ERR_DUPLICATE,
                                       xmlGetLineNo(set),
                                       "parameter",
                                       "case '%.60s' sets '%s' twice",
                                       dim->values[v],
                                       one->parameter);
                }
            }
            if (rc == DDNN_OK && varied_elsewhere(c, dim, one->parameter))
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_DUPLICATE,
                                   xmlGetLineNo(set),
                                   "parameter",
                                   "'%s' is varied twice (case '%.60s' of <vary name=\"%s\"> "
                                   "and another <vary>)",
                                   one->parameter,
                                   dim->values[v],
                                   dim->name);
            }
        }
    }
    return rc;
}

DDNN_FILE_READER(ddnn_campaign_read_file,
                 ddnn_campaign**,
                 ddnn_campaign_parse,
                 DDNN_SCENARIO_MAX_BYTES)

int
ddnn_campaign_parse(ddnn_campaign** out, const char* text, size_t len, ddnn_diag* diag)
{
    xmlDocPtr doc = NULL;
    xmlNodePtr root, child;
    ddnn_campaign* c;
    int rc = ddnn_scenario_load_document(text, len, &doc, diag);
    if (rc != DDNN_OK)
    {
        return rc;
    }
    c = calloc(1, sizeof *c);
    if (!c)
    {
        xmlFreeDoc(doc);
        return ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
    }
    ddnn_scenario_defaults(&c->base);
    root = xmlDocGetRootElement(doc);
    if (strcmp((const char*)root->name, "campaign") != 0)
    {
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_SYNTAX,
                           xmlGetLineNo(root),
                           (const char*)root->name,
                           "expected a <campaign>, found <%s>",
                           (const char*)root->name);
    }
    for (child = root->children; rc == DDNN_OK && child; child = child->next)
    {
        if (child->type != XML_ELEMENT_NODE)
        {
            continue;
        }
        if (strcmp((const char*)child->name, "scenario") == 0)
        {
            rc = ddnn_scenario_read_element(child, &c->base, diag);
        }
        else if (strcmp((const char*)child->name, "reference") == 0)
        {
            xmlChar* file = xmlGetProp(child, (const xmlChar*)"file"); /* the schema bounds it */
            snprintf(c->reference, sizeof c->reference, "%s", file ? (const char*)file : "");
            xmlFree(file);
        }
        else if (strcmp((const char*)child->name, "vary") == 0)
        {
            dimension* dim = &c->dims[c->dim_count++]; /* the schema allows at most 8 */
            xmlChar* parameter = xmlGetProp(child, (const xmlChar*)"parameter");
            xmlChar* values = xmlGetProp(child, (const xmlChar*)"values");
            xmlChar* name = xmlGetProp(child, (const xmlChar*)"name");
            if (!parameter == !name || !parameter != !values)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_SYNTAX,
                                   xmlGetLineNo(child),
                                   "vary",
                                   "expected <vary parameter=\"...\" values=\"...\"/> or <vary "
                                   "name=\"...\"> with <case> elements");
                xmlFree(parameter);
                xmlFree(values);
                xmlFree(name);
                break;
            }
            if (name)
            {
                snprintf(dim->name, sizeof dim->name, "%s", (const char*)name);
                xmlFree(name);
                rc = read_cases(c, dim, child, diag);
                continue;
            }
            snprintf(dim->parameter, sizeof dim->parameter, "%s", (const char*)parameter);
            rc = split_values(dim, (const char*)values);
            if (rc == DDNN_OK && dim->count == 0)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_EMPTY,
                                   xmlGetLineNo(child),
                                   "values",
                                   "<vary parameter=\"%s\"> lists no values",
                                   dim->parameter);
            }
            else if (rc == DDNN_OK
                     && (rc = check_parameter(&c->base, dim->parameter, xmlGetLineNo(child), diag))
                            != DDNN_OK)
            {
                /* diag names the parameter */
            }
            else if (rc == DDNN_OK
                     && (rc = check_dimension(c, dim, xmlGetLineNo(child), diag)) != DDNN_OK)
            {
                /* diag says which value or parameter repeats */
            }
            else if (rc == DDNN_OK && varied_elsewhere(c, dim, dim->parameter))
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_DUPLICATE,
                                   xmlGetLineNo(child),
                                   "parameter",
                                   "'%s' is varied twice (here and in a <case>)",
                                   dim->parameter);
            }
            xmlFree(parameter);
            xmlFree(values);
        }
    }
    xmlFreeDoc(doc);
    if (rc == DDNN_OK)
    {
        /* The grid's size, without wrapping: refused past DDNN_CAMPAIGN_MAX_RUNS. */
        size_t d, n = 1;
        for (d = 0; d < c->dim_count && rc == DDNN_OK; d++)
        {
            if (c->dims[d].count > DDNN_CAMPAIGN_MAX_RUNS / n)
            {
                rc = ddnn_diag_set(diag,
                                   DDNN_ERR_TOO_LARGE,
                                   0,
                                   "vary",
                                   "the grid has more than %d runs",
                                   DDNN_CAMPAIGN_MAX_RUNS);
            }
            n *= c->dims[d].count;
        }
    }
    if (rc != DDNN_OK)
    {
        ddnn_campaign_free(c);
        return rc;
    }
    *out = c;
    return DDNN_OK;
}

const char*
ddnn_campaign_reference(const ddnn_campaign* c)
{
    return c->reference;
}

size_t
ddnn_campaign_size(const ddnn_campaign* c)
{
    size_t n = 1, d;
    for (d = 0; d < c->dim_count; d++)
    {
        n *= c->dims[d].count;
    }
    return n;
}

/* A run's name as its dimensions add to it; `used` may pass `size` (the name is then cut). */
typedef struct
{
    char* text;
    size_t used;
    size_t size;
} run_name;

/* Appends "_"key"=" ("key=" to an empty name) and `value` percent-encoded (every byte but
 * letters, digits, '.' and '-', so '_', '=' and '/' too: names stay distinct, reversible and
 * safe as folder names). */
static void
append_name(run_name* name, const char* key, const char* value)
{
    const char* v;
    name->used += (size_t)snprintf(name->text + name->used,
                                   name->used < name->size ? name->size - name->used : 0,
                                   "%s%s=",
                                   name->used ? "_" : "",
                                   key);
    for (v = value; *v; v++)
    {
        unsigned char ch = (unsigned char)*v;
        name->used += (size_t)snprintf(name->text + name->used,
                                       name->used < name->size ? name->size - name->used : 0,
                                       isalnum(ch) || ch == '.' || ch == '-' ? "%c" : "%%%02X",
                                       ch);
    }
}

/* Sets the scenario address `parameter` to `value` on *s. A refusal names its cause in `why`:
 * the parameter's own line, or "unknown parameter". */
static int
set_parameter(ddnn_scenario* s, const char* parameter, const char* value, ddnn_diag* why)
{
    const ddnn_param* param = NULL;
    uint32_t job = 0;
    int rc = ddnn_scenario_param_address(parameter, &param, &job);
    if (rc == DDNN_OK)
    {
        rc = ddnn_scenario_set_job_param(s, param, job, value, why);
    }
    else
    {
        snprintf(why->message, sizeof why->message, "unknown parameter");
    }
    return rc;
}

/* Value `v` of a parameter's dimension on *s, "attribute=value" on the run's name. */
static int
apply_value(const dimension* dim, size_t v, ddnn_scenario* s, run_name* name, ddnn_diag* diag)
{
    const char* value = dim->values[v];
    const ddnn_param* param = NULL;
    uint32_t job = 0;
    ddnn_diag why = {0};
    char key[96];
    if (ddnn_scenario_param_address(dim->parameter, &param, &job) == DDNN_OK && job > 0)
    {
        /* training[K].x: jobK-x */
        snprintf(key, sizeof key, "job%u-%s", job + 1, strchr(dim->parameter, '.') + 1);
    }
    else
    {
        snprintf(key, sizeof key, "%s", strchr(dim->parameter, '.') + 1);
    }
    append_name(name, key, value);
    const int rc = set_parameter(s, dim->parameter, value, &why);
    if (rc != DDNN_OK)
    {
        return ddnn_diag_set(diag,
                             rc,
                             0,
                             dim->parameter,
                             "run %.60s: <vary parameter=\"%s\">: %.100s",
                             name->text,
                             dim->parameter,
                             why.message);
    }
    return DDNN_OK;
}

/* Case `v` of a dimension of cases: its sets on *s, "name=case" on the run's name. */
static int
apply_case(const dimension* dim, size_t v, ddnn_scenario* s, run_name* name, ddnn_diag* diag)
{
    size_t k;
    append_name(name, dim->name, dim->values[v]);
    for (k = 0; k < dim->set_counts[v]; k++)
    {
        const case_set* one = &dim->sets[v][k];
        ddnn_diag why = {0};
        const int rc = set_parameter(s, one->parameter, one->value, &why);
        if (rc != DDNN_OK)
        {
            return ddnn_diag_set(diag,
                                 rc,
                                 0,
                                 one->parameter,
                                 "run %.60s: case '%.40s' of <vary name=\"%s\">: %.100s",
                                 name->text,
                                 dim->values[v],
                                 dim->name,
                                 why.message);
        }
    }
    return DDNN_OK;
}

int
ddnn_campaign_point(const ddnn_campaign* c,
                    size_t index,
                    ddnn_scenario* s,
                    char* name,
                    size_t name_size,
                    ddnn_diag* diag)
{
    size_t pick[MAX_DIMENSIONS], d, rest = index;
    char* text;
    size_t len;
    run_name run = {name, 0, name_size};
    int rc;
    if (index >= ddnn_campaign_size(c))
    {
        return DDNN_ERR_INVALID;
    }
    for (d = c->dim_count; d-- > 0;)
    {
        pick[d] = rest % c->dims[d].count;
        rest /= c->dims[d].count;
    }
    *s = c->base;
    name[0] = '\0';
    for (d = 0; d < c->dim_count; d++)
    {
        const dimension* dim = &c->dims[d];
        rc = dim->sets ? apply_case(dim, pick[d], s, &run, diag)
                       : apply_value(dim, pick[d], s, &run, diag);
        if (rc != DDNN_OK)
        {
            return rc;
        }
        if (run.used >= name_size)
        {
            return ddnn_diag_set(diag,
                                 DDNN_ERR_TOO_LARGE,
                                 0,
                                 dim->sets ? dim->name : dim->parameter,
                                 "run %.60s...: its name would pass %zu characters; shorten the "
                                 "varied values",
                                 name,
                                 name_size - 1);
        }
    }
    if (c->dim_count == 0)
    {
        snprintf(name, name_size, "run");
    }
    /* Check the point against the schema: the values of <vary> were not validated yet. */
    rc = ddnn_scenario_write(s, &text, &len);
    if (rc != DDNN_OK)
    {
        return ddnn_diag_set(diag, rc, 0, "", "out of memory");
    }
    rc = ddnn_scenario_parse(s, text, len, diag);
    free(text);
    if (rc != DDNN_OK)
    {
        char message[sizeof diag->message];
        snprintf(message, sizeof message, "%s", diag->message);
        diag->line = 0;
        snprintf(diag->message, sizeof diag->message, "run %.60s: %.130s", name, message);
    }
    return rc;
}

size_t
ddnn_campaign_dimension_count(const ddnn_campaign* c)
{
    return c ? c->dim_count : 0;
}

const char*
ddnn_campaign_case_dimension(const ddnn_campaign* c, size_t d)
{
    return c && d < c->dim_count && c->dims[d].sets ? c->dims[d].name : NULL;
}

const char*
ddnn_campaign_dimension_parameter(const ddnn_campaign* c, size_t d)
{
    return c && d < c->dim_count && !c->dims[d].sets ? c->dims[d].parameter : NULL;
}

const char*
ddnn_campaign_point_value(const ddnn_campaign* c, size_t index, size_t d)
{
    size_t e, rest = index;
    if (!c || d >= c->dim_count || index >= ddnn_campaign_size(c))
    {
        return NULL;
    }
    for (e = c->dim_count; --e > d;)
    {
        rest /= c->dims[e].count;
    }
    return c->dims[d].values[rest % c->dims[d].count];
}
