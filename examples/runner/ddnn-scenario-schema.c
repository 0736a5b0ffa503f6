/* SPDX-License-Identifier: GPL-2.0-only */
#include "ddnn-scenario-schema.h"

#include "ddnn-scenario-params.h"
#include "ddnn-xml-text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v as the schema's readers (and libxml2's messages) show it: for a whole-number type in
 * digits, else the shortest decimal that reads back as v, its exponent without sign or zeros
 * ("1e6", "1e-5"; "10", not "1e1"). */
static void
append_number(ddnn_xml_text* t, double v, int whole)
{
    char out[40], digits_only[40];
    char* e;
    int digits;
    snprintf(digits_only, sizeof digits_only, "%.0f", v);
    if (whole)
    {
        ddnn_xml_text_append(t, "%s", digits_only);
        return;
    }
    for (digits = 1; digits <= 17; digits++)
    {
        snprintf(out, sizeof out, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
        {
            break;
        }
    }
    e = strchr(out, 'e');
    if (e)
    {
        const char* from = e + 1;
        char exponent[8];
        int negative = *from == '-';
        from += *from == '-' || *from == '+';
        while (*from == '0' && from[1] != '\0')
        {
            from++;
        }
        snprintf(exponent, sizeof exponent, "%s", from);
        snprintf(e, sizeof out - (size_t)(e - out), "e%s%s", negative ? "-" : "", exponent);
        if (strtod(digits_only, NULL) == v && strlen(digits_only) <= strlen(out))
        {
            ddnn_xml_text_append(t, "%s", digits_only);
            return;
        }
    }
    ddnn_xml_text_append(t, "%s", out);
}

static void
append_facet(ddnn_xml_text* t, const char* facet, double v, int whole)
{
    ddnn_xml_text_append(t, "          <xs:%s value=\"", facet);
    append_number(t, v, whole);
    ddnn_xml_text_append(t, "\"/>\n");
}

/* A registry's name: the programs check it against the registry, the schema only its form. */
#define NAME_PATTERN "[A-Za-z0-9][A-Za-z0-9._-]*"
/* An ns-3 data rate as ddnn writes and reads it. */
#define RATE_PATTERN "[0-9]+(\\.[0-9]+)?(bps|kbps|Kbps|Mbps|Gbps|b/s|kb/s|Mb/s|Gb/s)"

static void
append_parameter(ddnn_xml_text* t, const ddnn_param* p)
{
    static const char* const base[] = {
        [DDNN_PARAM_U32] = "xs:unsignedInt",
        [DDNN_PARAM_U64] = "xs:unsignedLong",
        [DDNN_PARAM_DOUBLE] = "xs:double",
        [DDNN_PARAM_BOOL] = "xs:boolean",
        [DDNN_PARAM_TEXT] = "xs:string",
    };
    ddnn_xml_text_append(t,
                         "    <xs:attribute name=\"%s\"%s>\n",
                         p->attribute,
                         p->required ? " use=\"required\"" : "");
    ddnn_xml_text_append(t, "      <xs:annotation><xs:documentation>");
    ddnn_xml_text_append_escaped(t, p->help);
    if (p->unit[0])
    {
        ddnn_xml_text_append(t, " (%s)", p->unit);
    }
    if (p->form == DDNN_TEXT_NAME)
    {
        ddnn_xml_text_append(t, ". A registered name, checked by the programs");
        if (p->choices)
        {
            ddnn_xml_text_append(t, "; shipped: ");
            ddnn_xml_text_append_escaped(t, p->choices);
        }
    }
    ddnn_xml_text_append(t, "</xs:documentation></xs:annotation>\n");
    if (p->type == DDNN_PARAM_BOOL)
    {
        ddnn_xml_text_append(
            t, "      <xs:simpleType><xs:restriction base=\"xs:boolean\"/></xs:simpleType>\n");
        ddnn_xml_text_append(t, "    </xs:attribute>\n");
        return;
    }
    ddnn_xml_text_append(
        t, "      <xs:simpleType>\n        <xs:restriction base=\"%s\">\n", base[p->type]);
    if (p->type == DDNN_PARAM_TEXT)
    {
        if (p->form == DDNN_TEXT_NAME)
        {
            ddnn_xml_text_append(t, "          <xs:pattern value=\"" NAME_PATTERN "\"/>\n");
        }
        else if (p->form == DDNN_TEXT_RATE)
        {
            ddnn_xml_text_append(t, "          <xs:pattern value=\"" RATE_PATTERN "\"/>\n");
        }
        if (p->form == DDNN_TEXT_ANY && p->choices)
        {
            const char* word = p->choices;
            for (;;)
            {
                size_t n = strcspn(word, "|");
                ddnn_xml_text_append(
                    t, "          <xs:enumeration value=\"%.*s\"/>\n", (int)n, word);
                if (word[n] == '\0')
                {
                    break;
                }
                word += n + 1;
            }
        }
        else
        {
            append_facet(t, "maxLength", (double)(p->size - 1), 1);
        }
    }
    else
    {
        int whole = p->type != DDNN_PARAM_DOUBLE;
        append_facet(t, p->min_exclusive ? "minExclusive" : "minInclusive", p->min, whole);
        append_facet(t, "maxInclusive", p->max, whole);
    }
    ddnn_xml_text_append(
        t, "        </xs:restriction>\n      </xs:simpleType>\n    </xs:attribute>\n");
}

/* What is not a parameter: the document's frame, the ns-3 defaults and the campaign. */
static const char* const frame[] = {
    "  <xs:simpleType name=\"version\">\n"
    "    <xs:restriction base=\"xs:unsignedInt\"><xs:enumeration value=\"1\"/></xs:restriction>\n"
    "  </xs:simpleType>\n"
    "  <xs:simpleType name=\"parameterName\">\n"
    "    <xs:restriction base=\"xs:string\">\n"
    "      <xs:pattern value=\"[a-z]+(\\[[1-9][0-9]*\\])?\\.[a-z-]+\"/>\n"
    "    </xs:restriction>\n"
    "  </xs:simpleType>\n"
    "  <!-- A <vary>'s name and a <case>'s: they name output folders and report rows. -->\n"
    "  <xs:simpleType name=\"dimensionName\">\n"
    "    <xs:restriction base=\"xs:string\">\n"
    "      <xs:pattern value=\"[a-z][a-z0-9-]*\"/><xs:maxLength value=\"31\"/>\n"
    "    </xs:restriction>\n"
    "  </xs:simpleType>\n"
    "  <xs:simpleType name=\"caseName\">\n"
    "    <xs:restriction base=\"xs:string\">\n"
    "      <xs:pattern value=\"[A-Za-z0-9][A-Za-z0-9.-]*\"/><xs:maxLength value=\"31\"/>\n"
    "    </xs:restriction>\n"
    "  </xs:simpleType>\n"
    "\n",
    "  <xs:complexType name=\"ns3-default\">\n"
    "    <xs:attribute name=\"name\" use=\"required\">\n"
    "      <xs:simpleType>\n"
    "        <xs:restriction base=\"xs:string\">\n"
    "          <xs:pattern value=\"ns3::[A-Za-z0-9_:]+::[A-Za-z0-9_]+\"/>\n"
    "          <xs:maxLength value=\"127\"/>\n"
    "        </xs:restriction>\n"
    "      </xs:simpleType>\n"
    "    </xs:attribute>\n"
    "    <xs:attribute name=\"value\" use=\"required\">\n"
    "      <xs:simpleType>\n"
    "        <xs:restriction base=\"xs:string\"><xs:maxLength value=\"255\"/></xs:restriction>\n"
    "      </xs:simpleType>\n"
    "    </xs:attribute>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <!-- Any order; one <training> per job (at most 8). How often each element may appear\n"
    "       (topology and run once, the others at most once, ns3-default at most 16) is checked\n"
    "       by the reader. -->\n"
    "  <xs:complexType name=\"scenario\">\n"
    "    <xs:choice minOccurs=\"2\" maxOccurs=\"30\">\n"
    "      <xs:element name=\"topology\" type=\"topology\"/>\n"
    "      <xs:element name=\"training\" type=\"training\"/>\n"
    "      <xs:element name=\"background\" type=\"background\"/>\n"
    "      <xs:element name=\"transport\" type=\"transport\"/>\n"
    "      <xs:element name=\"priority\" type=\"priority\"/>\n"
    "      <xs:element name=\"run\" type=\"run\"/>\n"
    "      <xs:element name=\"output\" type=\"output\"/>\n"
    "      <xs:element name=\"ns3-default\" type=\"ns3-default\"/>\n"
    "    </xs:choice>\n"
    "    <xs:attribute name=\"version\" type=\"version\" use=\"required\"/>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <!-- A dimension of the grid: one parameter's values (parameter, values), or named cases\n"
    "       that each set several parameters (name, and <case> elements); the programs check\n"
    "       that a <vary> is one or the other. -->\n"
    "  <xs:complexType name=\"vary\">\n"
    "    <xs:sequence>\n"
    "      <xs:element name=\"case\" type=\"case\" minOccurs=\"0\" maxOccurs=\"64\"/>\n"
    "    </xs:sequence>\n"
    "    <xs:attribute name=\"parameter\" type=\"parameterName\"/>\n"
    "    <xs:attribute name=\"values\">\n"
    "      <xs:simpleType>\n"
    "        <xs:restriction base=\"xs:string\">\n"
    "          <xs:minLength value=\"1\"/>\n"
    "          <xs:maxLength value=\"4000\"/>\n"
    "        </xs:restriction>\n"
    "      </xs:simpleType>\n"
    "    </xs:attribute>\n"
    "    <xs:attribute name=\"name\" type=\"dimensionName\"/>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <xs:complexType name=\"case\">\n"
    "    <xs:sequence>\n"
    "      <xs:element name=\"set\" type=\"set\" minOccurs=\"1\" maxOccurs=\"16\"/>\n"
    "    </xs:sequence>\n"
    "    <xs:attribute name=\"name\" type=\"caseName\" use=\"required\"/>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <xs:complexType name=\"set\">\n"
    "    <xs:attribute name=\"parameter\" type=\"parameterName\" use=\"required\"/>\n"
    "    <xs:attribute name=\"value\" use=\"required\">\n"
    "      <xs:simpleType>\n"
    "        <xs:restriction base=\"xs:string\"><xs:maxLength value=\"1024\"/></xs:restriction>\n"
    "      </xs:simpleType>\n"
    "    </xs:attribute>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <xs:complexType name=\"campaign\">\n"
    "    <xs:sequence>\n"
    "      <xs:element name=\"scenario\" type=\"scenario\"/>\n"
    "      <xs:element name=\"vary\" type=\"vary\" minOccurs=\"0\" maxOccurs=\"8\"/>\n"
    "      <xs:element name=\"reference\" minOccurs=\"0\">\n"
    "        <xs:complexType>\n"
    "          <xs:attribute name=\"file\" use=\"required\">\n"
    "            <xs:simpleType>\n"
    "              <xs:restriction base=\"xs:string\">\n"
    "                <xs:minLength value=\"1\"/>\n"
    "                <xs:maxLength value=\"1023\"/>\n"
    "              </xs:restriction>\n"
    "            </xs:simpleType>\n"
    "          </xs:attribute>\n"
    "        </xs:complexType>\n"
    "      </xs:element>\n"
    "    </xs:sequence>\n"
    "    <xs:attribute name=\"version\" type=\"version\" use=\"required\"/>\n"
    "  </xs:complexType>\n"
    "\n",
    "  <xs:element name=\"scenario\" type=\"scenario\"/>\n"
    "  <xs:element name=\"campaign\" type=\"campaign\"/>\n",
};

int
ddnn_scenario_schema(char** out, size_t* len)
{
    ddnn_xml_text t = {NULL, 0, 0, 0};
    const char* element = NULL;
    size_t i;
    ddnn_xml_text_append(
        &t,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- SPDX-License-Identifier: GPL-2.0-only -->\n"
        "<!-- Schema of ddnn scenario and campaign files, generated from the parameter table\n"
        "     (examples/runner/ddnn-scenario-rows.def): the programs validate every file\n"
        "     against it before reading. -->\n"
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" "
        "elementFormDefault=\"qualified\">\n");
    /* The rows come grouped by element, in document order. */
    for (i = 0; i < ddnn_scenario_param_count(); i++)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        if (!element || strcmp(element, p->element) != 0)
        {
            ddnn_xml_text_append(&t,
                                 "%s\n  <xs:complexType name=\"%s\">\n",
                                 element ? "  </xs:complexType>" : "",
                                 p->element);
            element = p->element;
        }
        append_parameter(&t, p);
    }
    ddnn_xml_text_append(&t, "  </xs:complexType>\n\n");
    for (i = 0; i < sizeof frame / sizeof frame[0]; i++)
    {
        ddnn_xml_text_append(&t, "%s", frame[i]);
    }
    ddnn_xml_text_append(&t, "</xs:schema>\n");
    if (t.failed)
    {
        free(t.text);
        return DDNN_ERR_NOMEM;
    }
    *out = t.text;
    *len = t.len;
    return DDNN_OK;
}
