/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3-defaults.h"

#include "ns3/config.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>

namespace ns3
{

namespace
{

/** Whether `text` is a whole decimal number: one of `signs` or none, then digits. */
bool
IsInteger(const std::string& text, const std::string& signs)
{
    const size_t start = !text.empty() && signs.find(text[0]) != std::string::npos ? 1 : 0;
    return text.size() > start && text.find_first_not_of("0123456789", start) == std::string::npos;
}

/** Whether `text` is a decimal number that strtod reads whole (no hexadecimal, inf, nan). */
bool
IsDecimal(const std::string& text)
{
    char* end = nullptr;
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        return false;
    }
    std::strtod(text.c_str(), &end);
    return *end == '\0';
}

/** Whether ns-3 reads `text` as a whole value of the type it names, without aborting. */
bool
ReadsWhole(const std::string& valueType, const std::string& text)
{
    if (valueType == "ns3::DoubleValue")
    {
        return IsDecimal(text);
    }
    if (valueType == "ns3::UintegerValue")
    {
        return IsInteger(text, "+");
    }
    if (valueType == "ns3::IntegerValue")
    {
        return IsInteger(text, "+-");
    }
    if (valueType == "ns3::TimeValue")
    {
        // A number and one of ns-3's units (Time's parser aborts on any other text).
        const size_t unit = text.find_last_not_of("smunpfihdy") + 1;
        const std::string suffix = text.substr(unit);
        for (const char* known : {"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"})
        {
            if (suffix == known)
            {
                return IsDecimal(text.substr(0, unit));
            }
        }
        return false;
    }
    return true; // the others' parsers return false on bad text
}

} // namespace

Ns3Defaults
Ns3DefaultsOf(const ddnn_scenario& scenario)
{
    Ns3Defaults defaults;
    for (uint32_t i = 0; i < scenario.ns3_default_count; ++i)
    {
        defaults.emplace_back(scenario.ns3_defaults[i].name, scenario.ns3_defaults[i].value);
    }
    return defaults;
}

Ns3Defaults
Ns3DefaultsOnCommandLine(int argc, char* argv[])
{
    Ns3Defaults defaults;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t equals = arg.find('=');
        if (arg.compare(0, 7, "--ns3::") == 0 && equals != std::string::npos)
        {
            defaults.emplace_back(arg.substr(2, equals - 2), arg.substr(equals + 1));
        }
    }
    return defaults;
}

void
ApplyNs3Defaults(const Ns3Defaults& defaults, const std::string& where)
{
    for (const auto& [name, value] : defaults)
    {
        const size_t colons = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        auto fail = [&](const std::string& why) {
            throw DdnnError(where + ": " + name + "=" + value + ": " + why);
        };
        if (colons == std::string::npos
            || !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid)
            || !tid.LookupAttributeByName(name.substr(colons + 2), &info))
        {
            fail("expected an attribute ns-3 has, such as ns3::TcpSocket::SegmentSize");
        }
        Ptr<AttributeValue> valid = ReadsWhole(info.checker->GetValueTypeName(), value)
                                        ? info.checker->CreateValidValue(StringValue(value))
                                        : nullptr;
        if (!valid)
        {
            fail("expected a value of " + info.checker->GetValueTypeName() + " that "
                 + name.substr(colons + 2) + " accepts");
        }
        Config::SetDefault(name, *valid);
    }
}

} // namespace ns3
