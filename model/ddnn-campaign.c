/* SPDX-License-Identifier: GPL-2.0-only */
/* Campaigns: a base scenario and the <vary> dimensions whose product is the grid of runs. */
#include "ddnn-csv.h"
#include "ddnn-scenario-params.h"
#include "ddnn-scenario-xml.h"
#include "ddnn-scenario.h"

#include <libxml/tree.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMENSIONS 8

typedef struct
{
    char parameter[64];
    char** values;
    size_t count;
} dimension;

struct ddnn_campaign
{
    ddnn_scenario base;
    dimension dims[MAX_DIMENSIONS];
    size_t dim_count;
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
        }
        free(c->dims[d].values);
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

int
ddnn_campaign_read_file(ddnn_campaign** out,
                        const char* path,
                        const char* schema_path,
                        ddnn_diag* diag)
{
    char* text;
    size_t len;
    int rc = ddnn_read_file(path, DDNN_SCENARIO_MAX_BYTES, &text, &len, diag);
    if (rc < 0)
    {
        return rc;
    }
    rc = ddnn_campaign_parse(out, text, len, schema_path, diag);
    free(text);
    return rc;
}

int
ddnn_campaign_parse(
    ddnn_campaign** out, const char* text, size_t len, const char* schema_path, ddnn_diag* diag)
{
    xmlDocPtr doc = NULL;
    xmlNodePtr root, child;
    ddnn_campaign* c;
    int rc = ddnn_scenario_load_document(text, len, schema_path, &doc, diag);
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
        else if (strcmp((const char*)child->name, "vary") == 0)
        {
            dimension* dim = &c->dims[c->dim_count++]; /* the schema allows at most 8 */
            xmlChar* parameter = xmlGetProp(child, (const xmlChar*)"parameter");
            xmlChar* values = xmlGetProp(child, (const xmlChar*)"values");
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

int
ddnn_campaign_point(const ddnn_campaign* c,
                    size_t index,
                    const char* schema_path,
                    ddnn_scenario* s,
                    char* name,
                    size_t name_size,
                    ddnn_diag* diag)
{
    size_t pick[MAX_DIMENSIONS], d, rest = index;
    char* text;
    size_t len, used = 0;
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
        const char* value = c->dims[d].values[pick[d]];
        const char* attribute = strchr(c->dims[d].parameter, '.') + 1;
        const ddnn_param* param = NULL;
        uint32_t job = 0;
        ddnn_diag why = {0};
        const char* v;
        char job_prefix[16] = "";
        rc = ddnn_scenario_param_address(c->dims[d].parameter, &param, &job);
        if (rc == DDNN_OK && job > 0)
        {
            snprintf(job_prefix, sizeof job_prefix, "job%u-", job + 1); /* training[K].x: jobK-x */
        }
        used += (size_t)snprintf(name + used,
                                 used < name_size ? name_size - used : 0,
                                 "%s%s%s=",
                                 d ? "_" : "",
                                 job_prefix,
                                 attribute);
        /* Percent-encoded: every byte but letters, digits, '.' and '-' (so '_', '=' and '/'
         * too), which keeps names distinct, reversible and safe as folder names. */
        for (v = value; *v; v++)
        {
            unsigned char ch = (unsigned char)*v;
            used += (size_t)snprintf(name + used,
                                     used < name_size ? name_size - used : 0,
                                     isalnum(ch) || ch == '.' || ch == '-' ? "%c" : "%%%02X",
                                     ch);
        }
        if (rc == DDNN_OK)
        {
            rc = ddnn_scenario_set_job_param(s, param, job, value, &why);
        }
        if (rc != DDNN_OK)
        {
            return ddnn_diag_set(diag,
                                 rc,
                                 0,
                                 c->dims[d].parameter,
                                 "run %.60s: <vary parameter=\"%s\">: %.100s",
                                 name,
                                 c->dims[d].parameter,
                                 param ? why.message : "unknown parameter");
        }
        if (used >= name_size)
        {
            return ddnn_diag_set(diag,
                                 DDNN_ERR_TOO_LARGE,
                                 0,
                                 c->dims[d].parameter,
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
    rc = ddnn_scenario_parse(s, text, len, schema_path, diag);
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
