/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NS3_DEFAULTS_H
#define NS3_DEFAULTS_H

#include "ddnn-scenario.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief ns-3 attribute defaults a run sets (--ns3::Type::Attribute=Value on the command
 * line, <ns3-default name="ns3::Type::Attribute" value="Value"/> in a scenario): recorded in
 * the written-back scenario, so that it reproduces the run.
 */
using Ns3Defaults = std::vector<std::pair<std::string, std::string>>;

/** The defaults a scenario records (its <ns3-default> elements), in order. */
Ns3Defaults Ns3DefaultsOf(const ddnn_scenario& scenario);

/** The --ns3::Type::Attribute=Value arguments, in order. */
Ns3Defaults Ns3DefaultsOnCommandLine(int argc, char* argv[]);

/**
 * Sets each default (Config::SetDefault) after checking that ns-3 has the attribute and
 * reads the value whole (its own parsers of numbers and times abort on bad text); throws
 * DdnnError naming `where` and the attribute when not.
 */
void ApplyNs3Defaults(const Ns3Defaults& defaults, const std::string& where);

/**
 * The option that owns ns-3 attribute `name` ("ns3::Type::Attribute"): the table row that
 * sets it, or the runner's own list of attributes it sets from other values; "" for none.
 * ApplyNs3Defaults refuses a default for an owned attribute: it would be overridden.
 */
std::string Ns3DefaultOwner(const std::string& name);

/**
 * The table's refusal of `value` for ns-3 attribute `name` when a number row sets that
 * attribute ("expected a number in [0, 1], got '2'", the line --FLAG gives; a Time in the
 * row's unit), else "": so that a value out of the row's range is refused alike whether given
 * as --FLAG, in a scenario file or as --ns3::Type::Attribute.
 */
std::string OwnedAttributeRefusal(const std::string& name, const std::string& value);

/** The runner's own list of attributes it sets (for a test that each exists). */
std::vector<std::string> Ns3DefaultsOwned();

} // namespace ns3

#endif /* NS3_DEFAULTS_H */
