/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the scenario reader (ddnn-scenario.c) shares with the campaign reader
 * (ddnn-campaign.c). Private to the C core: neither installed nor staged.
 */
#ifndef DDNN_SCENARIO_XML_H
#define DDNN_SCENARIO_XML_H

#include "ddnn-scenario.h"
#include "ns3/ddnn-error.h"

#include <libxml/tree.h>

#include <stddef.h>

/*
 * Parses and validates text (at most DDNN_SCENARIO_MAX_BYTES and DDNN_SCENARIO_MAX_ATTRIBUTES,
 * no network, no DTD); on success *doc_out holds a tree that passed the schema.
 */
int ddnn_scenario_load_document(const char* text, size_t len, xmlDocPtr* doc_out, ddnn_diag* diag);

/* Copies every attribute of the children of `node` (a <scenario>) into *s. */
int ddnn_scenario_read_element(xmlNodePtr node, ddnn_scenario* s, ddnn_diag* diag);

#endif /* DDNN_SCENARIO_XML_H */
