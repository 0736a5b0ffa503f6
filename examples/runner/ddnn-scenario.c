/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-scenario.h"

#include "ddnn-scenario-params.h"
#include "ddnn-scenario-schema.h"
#include "ddnn-scenario-xml.h"
#include "ddnn-xml-text.h"
#include "ns3/ddnn-csv.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- XML reading ------------------------------------------------------------------------- */

/* libxml2 2.12 (Debian 13 and later) passes the error as const to the handler. */
#if LIBXML_VERSION >= 21200
typedef const xmlError* ddnn_xml_error;
#else
typedef xmlError* ddnn_xml_error;
#endif

/*
 * The table's own refusal of a value of element `node` the schema refused (e.g. out of its
 * range), the line the command line gives for the same value; libxml2 names the element, the
 * attribute only in its text. DDNN_OK when the table takes every value of the element (the
 * schema's message then stands).
 */
static int
table_refusal(xmlNodePtr node, long line, ddnn_diag* diag)
{
    ddnn_scenario* scratch;
    xmlAttrPtr attr;
    int rc = DDNN_OK;
    if (!node || node->type != XML_ELEMENT_NODE || !(scratch = calloc(1, sizeof *scratch)))
    {
        return DDNN_OK;
    }
    for (attr = node->properties; attr && rc == DDNN_OK; attr = attr->next)
    {
        char name[128];
        const ddnn_param* p;
        xmlChar* value;
        ddnn_diag why = {0};
        snprintf(name, sizeof name, "%s.%s", (const char*)node->name, (const char*)attr->name);
        if (!(p = ddnn_scenario_param_named(name)))
        {
            continue;
        }
        value = xmlNodeListGetString(node->doc, attr->children, 1);
        rc = ddnn_scenario_set_param(scratch, p, value ? (const char*)value : "", &why);
        xmlFree(value);
        if (rc != DDNN_OK)
        {
            ddnn_diag_set(diag,
                          rc,
                          line,
                          "",
                          "element '%s', attribute '%s': %s",
                          (const char*)node->name,
                          (const char*)attr->name,
                          why.message);
        }
    }
    free(scratch);
    return rc;
}

/* Keeps the first error libxml2 reports, with its line; for a parameter's value, the
 * table's message. */
static void
capture_error(void* ctx, ddnn_xml_error error)
{
    ddnn_diag* diag = ctx;
    size_t n;
    if (!diag || diag->code != DDNN_OK || !error || error->level < XML_ERR_ERROR)
    {
        return;
    }
    if (table_refusal(error->node, error->line, diag) != DDNN_OK)
    {
        return;
    }
    ddnn_diag_set(diag,
                  DDNN_ERR_SYNTAX,
                  error->line,
                  "",
                  "%s",
                  error->message ? error->message : "invalid XML");
    n = strlen(diag->message);
    while (n > 0 && isspace((unsigned char)diag->message[n - 1]))
    {
        diag->message[--n] = '\0';
    }
}

/* 1-based line of the first occurrence of `what` in text, 0 if absent. */
static long
line_of(const char* text, size_t len, const char* what)
{
    size_t i, n = strlen(what);
    long line = 1;
    for (i = 0; i + n <= len; i++)
    {
        if (memcmp(text + i, what, n) == 0)
        {
            return line;
        }
        line += text[i] == '\n';
    }
    return 0;
}

/*
 * Names an earlier version's files used that this one no longer reads, each with how to
 * convert: a file written then is refused with that advice instead of the schema's bare
 * "not allowed" (CHANGES.md lists the same changes).
 */
static const struct
{
    const char* element;
    const char* attribute;
    const char* since;
    const char* advice;
} removed_attributes[] = {
    {"training",
     "tos",
     "0.2",
     "give <priority training=\"same|low|high\"> or <training band=\"0..3\"> instead (ToS "
     "16, 0, 8 are pfifo-fast's bands 0, 1, 2"},
};

/* The first attribute of the removed table in the document, as an error with its advice. */
static int
check_removed_attributes(xmlNodePtr node, ddnn_diag* diag)
{
    for (; node; node = node->next)
    {
        size_t i;
        int rc;
        if (node->type != XML_ELEMENT_NODE)
        {
            continue;
        }
        for (i = 0; i < sizeof removed_attributes / sizeof removed_attributes[0]; i++)
        {
            if (strcmp((const char*)node->name, removed_attributes[i].element) == 0
                && xmlHasProp(node, (const xmlChar*)removed_attributes[i].attribute))
            {
                return ddnn_diag_set(diag,
                                     DDNN_ERR_SYNTAX,
                                     xmlGetLineNo(node),
                                     removed_attributes[i].attribute,
                                     "<%s %s> was removed in ddnn %s: %s; CHANGES.md)",
                                     removed_attributes[i].element,
                                     removed_attributes[i].attribute,
                                     removed_attributes[i].since,
                                     removed_attributes[i].advice);
            }
        }
        if ((rc = check_removed_attributes(node->children, diag)) < 0)
        {
            return rc;
        }
    }
    return DDNN_OK;
}

int
ddnn_scenario_load_document(const char* text, size_t len, xmlDocPtr* doc_out, ddnn_diag* diag)
{
    xmlDocPtr doc;
    xmlSchemaParserCtxtPtr schema_parser = NULL;
    xmlSchemaPtr schema = NULL;
    xmlSchemaValidCtxtPtr validator = NULL;
    char* schema_text = NULL;
    size_t schema_len = 0;
    ddnn_diag local;
    int rc = DDNN_OK;
    if (!diag)
    {
        diag = &local;
    }
    memset(diag, 0, sizeof *diag);
    if (len > DDNN_SCENARIO_MAX_BYTES)
    {
        return ddnn_diag_set(
            diag, DDNN_ERR_TOO_LARGE, 0, "", "larger than %d bytes", DDNN_SCENARIO_MAX_BYTES);
    }
    /*
     * libxml2 checks each attribute of an element against the ones before it: the work grows
     * with the square of their number. Bound the number first, by counting what looks like
     * one (="), well above what any scenario or campaign holds.
     */
    {
        size_t i, attributes = 0;
        for (i = 0; i + 1 < len; i++)
        {
            attributes += text[i] == '=' && (text[i + 1] == '"' || text[i + 1] == '\'');
        }
        if (attributes > DDNN_SCENARIO_MAX_ATTRIBUTES)
        {
            return ddnn_diag_set(diag,
                                 DDNN_ERR_TOO_LARGE,
                                 0,
                                 "",
                                 "more than %d attributes (found %zu)",
                                 DDNN_SCENARIO_MAX_ATTRIBUTES,
                                 attributes);
        }
    }
    xmlSetStructuredErrorFunc(diag, capture_error);
    /* NONET: never fetch anything; no DTDLOAD and no NOENT: no DTD is read, no entity expanded. */
    doc = xmlReadMemory(text, (int)len, "scenario.xml", NULL, XML_PARSE_NONET);
    if (!doc)
    {
        if (diag->code == DDNN_OK)
        {
            ddnn_diag_set(diag, DDNN_ERR_SYNTAX, 0, "", "not an XML document");
        }
        rc = diag->code;
        goto done;
    }
    if (doc->intSubset || doc->extSubset)
    {
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_SYNTAX,
                           line_of(text, len, "<!DOCTYPE"),
                           "DOCTYPE",
                           "document type declarations (DTDs, entities) are not allowed");
        goto done;
    }
    if ((rc = check_removed_attributes(xmlDocGetRootElement(doc), diag)) < 0)
    {
        goto done;
    }
    if ((rc = ddnn_scenario_schema(&schema_text, &schema_len)) != DDNN_OK)
    {
        rc = ddnn_diag_set(diag, rc, 0, "", "out of memory");
        goto done;
    }
    schema_parser = xmlSchemaNewMemParserCtxt(schema_text, (int)schema_len);
    schema = schema_parser ? xmlSchemaParse(schema_parser) : NULL;
    if (!schema)
    {
        /* The table made a schema libxml2 refuses: a defect of the table, not of the file. */
        memset(diag, 0, sizeof *diag);
        rc = ddnn_diag_set(diag, DDNN_ERR_INVALID, 0, "", "the generated schema does not parse");
        goto done;
    }
    validator = xmlSchemaNewValidCtxt(schema);
    if (!validator)
    {
        rc = ddnn_diag_set(diag, DDNN_ERR_NOMEM, 0, "", "out of memory");
        goto done;
    }
    xmlSchemaSetValidStructuredErrors(validator, capture_error, diag);
    if (xmlSchemaValidateDoc(validator, doc) != 0)
    {
        if (diag->code == DDNN_OK)
        {
            ddnn_diag_set(diag, DDNN_ERR_SYNTAX, 0, "", "does not match the schema");
        }
        rc = diag->code;
    }
done:
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (validator)
    {
        xmlSchemaFreeValidCtxt(validator);
    }
    if (schema)
    {
        xmlSchemaFree(schema);
    }
    if (schema_parser)
    {
        xmlSchemaFreeParserCtxt(schema_parser);
    }
    free(schema_text);
    if (rc != DDNN_OK)
    {
        xmlFreeDoc(doc);
        return rc;
    }
    *doc_out = doc;
    return DDNN_OK;
}

/* Whether a parameter sets others when set (a transport profile): it is read first. */
static int
sets_others(const xmlNode* element, const xmlAttr* attr)
{
    return strcmp((const char*)element->name, "transport") == 0
           && strcmp((const char*)attr->name, "profile") == 0;
}

/*
 * How often each element may appear in a <scenario> (the schema's choice allows any order and
 * count): <topology> and <run> once, <training> once per job, the others at most once.
 */
static int
check_element_counts(xmlNodePtr node, ddnn_diag* diag)
{
    static const struct
    {
        const char* name;
        unsigned min, max;
    } allowed[] = {{"topology", 1, 1},
                   {"training", 0, DDNN_SCENARIO_MAX_JOBS},
                   {"background", 0, 1},
                   {"transport", 0, 1},
                   {"priority", 0, 1},
                   {"run", 1, 1},
                   {"output", 0, 1},
                   {"ns3-default", 0, DDNN_SCENARIO_MAX_NS3_DEFAULTS}};
    size_t i;
    for (i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
    {
        unsigned count = 0;
        xmlNodePtr child, last = NULL;
        for (child = node->children; child; child = child->next)
        {
            if (child->type == XML_ELEMENT_NODE
                && strcmp((const char*)child->name, allowed[i].name) == 0)
            {
                count++;
                last = child;
            }
        }
        if (count < allowed[i].min || count > allowed[i].max)
        {
            return ddnn_diag_set(diag,
                                 DDNN_ERR_SYNTAX,
                                 last ? xmlGetLineNo(last) : xmlGetLineNo(node),
                                 allowed[i].name,
                                 "element '%s' given %u times, expected %s%u",
                                 allowed[i].name,
                                 count,
                                 allowed[i].min == allowed[i].max ? "" : "at most ",
                                 allowed[i].max);
        }
    }
    return DDNN_OK;
}

/* One <ns3-default name="ns3::T::A" value="V"/> into *s; a name given twice is refused. */
static int
read_ns3_default(xmlNodePtr element, ddnn_scenario* s, ddnn_diag* diag)
{
    xmlChar* name = xmlGetProp(element, (const xmlChar*)"name");
    xmlChar* value = xmlGetProp(element, (const xmlChar*)"value");
    ddnn_diag why = {0};
    uint32_t i;
    int rc = DDNN_OK;
    for (i = 0; name && i < s->ns3_default_count; i++)
    {
        if (strcmp(s->ns3_defaults[i].name, (const char*)name) == 0)
        {
            rc = ddnn_diag_set(&why, DDNN_ERR_DUPLICATE, 0, "name", "given twice");
        }
    }
    if (rc == DDNN_OK)
    {
        rc = ddnn_scenario_set_ns3_default(
            s, name ? (const char*)name : "", value ? (const char*)value : "", &why);
    }
    if (rc != DDNN_OK)
    {
        rc = ddnn_diag_set(diag,
                           rc,
                           xmlGetLineNo(element),
                           why.field,
                           "element 'ns3-default', name '%.100s': %s",
                           name ? (const char*)name : "",
                           why.message);
    }
    xmlFree(name);
    xmlFree(value);
    return rc;
}

/*
 * Copies every attribute of the children of `node` (a <scenario>) into *s: a transport
 * profile first, so that the values given beside it override its own. The k-th <training> is
 * job k; a job after the first starts from the first's values.
 */
int
ddnn_scenario_read_element(xmlNodePtr node, ddnn_scenario* s, ddnn_diag* diag)
{
    xmlNodePtr child;
    int pass;
    uint32_t jobs = 0;
    int rc = check_element_counts(node, diag);
    if (rc != DDNN_OK)
    {
        return rc;
    }
    for (pass = 0; pass < 2; pass++)
        for (child = node->children; child; child = child->next)
        {
            xmlAttrPtr attr;
            uint32_t job = 0;
            if (child->type != XML_ELEMENT_NODE)
            {
                continue;
            }
            if (strcmp((const char*)child->name, "ns3-default") == 0)
            {
                if (pass == 1 && (rc = read_ns3_default(child, s, diag)) != DDNN_OK)
                {
                    return rc;
                }
                continue;
            }
            if (pass == 1 && strcmp((const char*)child->name, "training") == 0)
            {
                job = jobs++;
                if (job > 0)
                {
                    s->jobs[job] = s->jobs[0];
                }
            }
            for (attr = child->properties; attr; attr = attr->next)
            {
                if (sets_others(child, attr) != (pass == 0))
                {
                    continue;
                }
                char name[128];
                const ddnn_param* p;
                xmlChar* value;
                ddnn_diag why = {0};
                snprintf(
                    name, sizeof name, "%s.%s", (const char*)child->name, (const char*)attr->name);
                p = ddnn_scenario_param_named(name);
                if (!p)
                {
                    return ddnn_diag_set(diag,
                                         DDNN_ERR_MISSING,
                                         xmlGetLineNo(child),
                                         (const char*)attr->name,
                                         "element '%s', attribute '%s': unknown",
                                         (const char*)child->name,
                                         (const char*)attr->name);
                }
                value = xmlNodeListGetString(child->doc, attr->children, 1);
                rc = ddnn_scenario_set_job_param(s, p, job, value ? (const char*)value : "", &why);
                xmlFree(value);
                if (rc != DDNN_OK)
                {
                    return ddnn_diag_set(diag,
                                         rc,
                                         xmlGetLineNo(child),
                                         "",
                                         "element '%s', attribute '%s': %s",
                                         (const char*)child->name,
                                         (const char*)attr->name,
                                         why.message);
                }
            }
        }
    if (jobs > 0)
    {
        s->job_count = jobs;
    }
    return DDNN_OK;
}

int
ddnn_scenario_parse(ddnn_scenario* s, const char* text, size_t len, ddnn_diag* diag)
{
    xmlDocPtr doc = NULL;
    xmlNodePtr root;
    int rc = ddnn_scenario_load_document(text, len, &doc, diag);
    if (rc != DDNN_OK)
    {
        return rc;
    }
    root = xmlDocGetRootElement(doc);
    if (strcmp((const char*)root->name, "scenario") != 0)
    {
        rc = ddnn_diag_set(diag,
                           DDNN_ERR_SYNTAX,
                           xmlGetLineNo(root),
                           (const char*)root->name,
                           "expected a <scenario>, found <%s>",
                           (const char*)root->name);
    }
    else
    {
        rc = ddnn_scenario_read_element(root, s, diag);
    }
    xmlFreeDoc(doc);
    return rc;
}

DDNN_FILE_READER(ddnn_scenario_read_file,
                 ddnn_scenario*,
                 ddnn_scenario_parse,
                 DDNN_SCENARIO_MAX_BYTES)

/* ---- XML writing ------------------------------------------------------------------------- */

/* Appends one element holding every parameter of `element` (of job `job` for <training>). */
static int
append_element(ddnn_xml_text* b, const ddnn_scenario* s, const char* element, uint32_t job)
{
    size_t i;
    ddnn_xml_text_append(b, "  <%s", element);
    for (i = 0; i < ddnn_scenario_param_count(); i++)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        char value[DDNN_PATH_MAX + 32];
        if (strcmp(p->element, element) != 0)
        {
            continue;
        }
        if (ddnn_scenario_format_job_param(s, p, job, value, sizeof value) != DDNN_OK)
        {
            return DDNN_ERR_TOO_LARGE;
        }
        ddnn_xml_text_append(b, " %s=\"", p->attribute);
        ddnn_xml_text_append_escaped(b, value);
        ddnn_xml_text_append(b, "\"");
    }
    ddnn_xml_text_append(b, "/>\n");
    return DDNN_OK;
}

int
ddnn_scenario_write(const ddnn_scenario* s, char** out, size_t* len)
{
    ddnn_xml_text b = {NULL, 0, 0, 0};
    size_t i;
    ddnn_xml_text_append(&b,
                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scenario version=\"1\">\n");
    /* Elements in the table's order, each once, <training> once per job. */
    for (i = 0; i < ddnn_scenario_param_count(); i++)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        uint32_t job, jobs = ddnn_param_is_per_job(p) ? s->job_count : 1;
        if (i > 0 && strcmp(ddnn_scenario_param(i - 1)->element, p->element) == 0)
        {
            continue;
        }
        for (job = 0; job < jobs; job++)
        {
            if (append_element(&b, s, p->element, job) != DDNN_OK)
            {
                free(b.text);
                return DDNN_ERR_TOO_LARGE;
            }
        }
    }
    for (i = 0; i < s->ns3_default_count; i++)
    {
        ddnn_xml_text_append(&b, "  <ns3-default name=\"");
        ddnn_xml_text_append_escaped(&b, s->ns3_defaults[i].name);
        ddnn_xml_text_append(&b, "\" value=\"");
        ddnn_xml_text_append_escaped(&b, s->ns3_defaults[i].value);
        ddnn_xml_text_append(&b, "\"/>\n");
    }
    ddnn_xml_text_append(&b, "</scenario>\n");
    if (b.failed)
    {
        free(b.text);
        return DDNN_ERR_NOMEM;
    }
    *out = b.text;
    *len = b.len;
    return DDNN_OK;
}
