/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3-defaults.h"

#include "ns3/config.h"
#include "ns3/ddnn-exception.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

/** Whether ns-3 reads `text` as a whole value of the type it names, without aborting. */
bool
ReadsWhole(const std::string& valueType, const std::string& text)
{
    static const std::regex number("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?");
    static const std::regex whole("[+]?[0-9]+");
    static const std::regex integer("[+-]?[0-9]+");
    static const std::regex time("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?"
                                 "(s|ms|us|ns|ps|fs|min|h|d|y)?");
    if (valueType == "ns3::DoubleValue")
    {
        return std::regex_match(text, number);
    }
    if (valueType == "ns3::UintegerValue")
    {
        return std::regex_match(text, whole);
    }
    if (valueType == "ns3::IntegerValue")
    {
        return std::regex_match(text, integer);
    }
    if (valueType == "ns3::TimeValue")
    {
        return std::regex_match(text, time);
    }
    return true; // the others' parsers return false on bad text
}

} // namespace

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
