/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-attributes.h"

#include "ddnn-scenario-params.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ns3
{

namespace
{

/** Nanoseconds per unit of the table's units of time; 0 for any other unit. */
double
NanosecondsPer(const std::string& unit)
{
    if (unit == "us")
    {
        return 1e3;
    }
    if (unit == "ms")
    {
        return 1e6;
    }
    return unit == "s" ? 1e9 : 0;
}

/** Whether `type` is `owner` or derives from it (TypeId::IsChildOf leaves out the type itself). */
bool
IsA(TypeId type, TypeId owner)
{
    for (;; type = type.GetParent())
    {
        if (type == owner)
        {
            return true;
        }
        if (type == type.GetParent())
        {
            return false;
        }
    }
}

/** "co-located" as an enum name: "CoLocated". */
std::string
EnumName(const std::string& choice)
{
    std::string name;
    bool upper = true;
    for (char c : choice)
    {
        if (c == '-')
        {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return name;
}

/** The value of row p (job `job`'s) for the attribute `info` describes. */
Ptr<AttributeValue>
ValueOf(const Scenario& scenario,
        const ddnn_param* p,
        uint32_t job,
        const TypeId::AttributeInformation& info)
{
    char text[DDNN_PATH_MAX + 64];
    if (ddnn_scenario_format_job_param(&scenario.values, p, job, text, sizeof text) != DDNN_OK)
    {
        throw DdnnError(JobArgument(job, p->flag) + ": cannot format the value");
    }
    Ptr<AttributeValue> value = info.checker->Create();
    const double perUnit = NanosecondsPer(p->unit);
    if (DynamicCast<TimeValue>(value) && perUnit > 0)
    {
        return Create<TimeValue>(NanoSeconds(std::llround(std::strtod(text, nullptr) * perUnit)));
    }
    if (DynamicCast<StringValue>(value))
    {
        return Create<StringValue>(text); // whole: its parser stops at a blank
    }
    std::string given = text;
    if (std::string(info.checker->GetValueTypeName()).rfind("ns3::EnumValue", 0) == 0)
    {
        // A choice names an enum value ("co-located": CoLocated); ns-3 asserts on a name its
        // enum does not list ("A|B|C"), so the name is looked up there first.
        given = EnumName(text);
        const std::string names = "|" + info.checker->GetUnderlyingTypeInformation() + "|";
        if (names.find("|" + given + "|") == std::string::npos)
        {
            given.clear();
        }
    }
    if (given.empty() || !value->DeserializeFromString(given, info.checker))
    {
        throw DdnnError(JobArgument(job, p->flag) + ": " + p->sets + " does not take '" + text
                        + "'");
    }
    return value;
}

} // namespace

void
SetScenarioAttributes(const Scenario& scenario,
                      uint32_t job,
                      TypeId type,
                      const AttributeSetter& set)
{
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        if (p->sets == nullptr)
        {
            continue;
        }
        const std::string target = p->sets;
        const size_t colons = target.rfind("::");
        const std::string owner = target.substr(0, colons);
        const std::string attribute = target.substr(colons + 2);
        TypeId ownerType;
        if (!TypeId::LookupByNameFailSafe(owner, &ownerType) || !IsA(type, ownerType))
        {
            continue;
        }
        TypeId::AttributeInformation info;
        if (!type.LookupAttributeByName(attribute, &info))
        {
            throw DdnnError(target + ": no such attribute (the parameter table's row of --"
                            + p->flag + ")");
        }
        set(attribute, *ValueOf(scenario, p, ddnn_param_is_per_job(p) ? job : 0, info));
    }
}

void
SetScenarioAttributes(const Scenario& scenario, uint32_t job, Ptr<Object> object)
{
    SetScenarioAttributes(scenario,
                          job,
                          object->GetInstanceTypeId(),
                          [&](const std::string& name, const AttributeValue& value) {
                              object->SetAttribute(name, value);
                          });
}

} // namespace ns3
