/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANDOM_VARIABLE_TEXT_H
#define RANDOM_VARIABLE_TEXT_H

#include "ns3/random-variable-stream.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The random variable that text in ns-3's object-factory form describes, e.g.
 * "ns3::NormalRandomVariable[Mean=0|Variance=0.0025]", checked before anything is created
 * (ns-3 itself aborts on an unknown type or attribute): a RandomVariableStream type with a
 * constructor, attributes it has, values they accept. Throws DdnnError "ARGUMENT: expected
 * ..., got '...'" otherwise.
 */
Ptr<RandomVariableStream> RandomVariableFromText(const std::string& text,
                                                 const std::string& argument);

/**
 * \ingroup ddnn
 * \brief Whether ns-3 reads @p text as a value of @p checker's type without aborting, and
 * the checker accepts it. ns-3's value parsers end the program on text they cannot read:
 * the numbers' and most others' (ATTRIBUTE_VALUE_IMPLEMENT) when the text has more than one
 * word or a number has a tail, Time's and QueueSize's on an unknown unit. Those forms are
 * checked here first; other types' parsers return false on bad text.
 */
bool IsValueText(Ptr<const AttributeChecker> checker, const std::string& text);

} // namespace ns3

#endif /* RANDOM_VARIABLE_TEXT_H */
