/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_SCENARIO_ATTRIBUTES_H
#define DDNN_RUNNER_SCENARIO_ATTRIBUTES_H

#include "scenario.h"

#include "ns3/attribute.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <functional>
#include <string>

namespace ns3
{

/** Sets one attribute by name (an object's SetAttribute, a helper's or a factory's Set). */
using AttributeSetter = std::function<void(const std::string&, const AttributeValue&)>;

/**
 * \ingroup ddnn
 * \brief Sets, through `set`, every attribute of `type` (or of a type it derives from) that a
 * row of the parameter table names (ddnn_param::sets), to job `job`'s value (the scenario's,
 * for a parameter of no job): the one place where scenario values become attributes.
 *
 * The value's text becomes the attribute's value: a number with a unit of time (us, ms, s)
 * a Time, a choice ("co-located") the enum value of that name without dashes or case
 * ("CoLocated"), anything else as the attribute parses its text. Throws DdnnError naming the
 * option when the attribute does not take it.
 */
void SetScenarioAttributes(const Scenario& scenario,
                           uint32_t job,
                           TypeId type,
                           const AttributeSetter& set);

/** The same on an object of its own type. */
void SetScenarioAttributes(const Scenario& scenario, uint32_t job, Ptr<Object> object);

} // namespace ns3

#endif /* DDNN_RUNNER_SCENARIO_ATTRIBUTES_H */
