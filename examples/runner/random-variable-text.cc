/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "random-variable-text.h"

#include "ns3/double.h"
#include "ns3/object-factory.h"
#include "ns3/one-line-error.h"
#include "ns3/string.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/** Whether ns-3 reads `text` as a whole value of `type` (its number parsers abort on rest). */
template<typename T>
bool
ReadsWhole(const std::string& text)
{
    std::istringstream in(text);
    T value;
    in >> value;
    return !in.fail() && in.eof();
}

/** NUMBER then one of `units` (NUMBER as ns-3 cuts it: up to the first of other characters). */
bool
IsNumberWithUnit(const std::string& text,
                 const std::string& numberCharacters,
                 const std::set<std::string>& units,
                 double maxFactor)
{
    const size_t at = text.find_first_not_of(numberCharacters);
    const std::string number = text.substr(0, at);
    const std::string unit = at == std::string::npos ? "" : text.substr(at);
    return !number.empty() && ReadsWhole<double>(number) && units.count(unit) != 0
           && std::fabs(std::strtod(number.c_str(), nullptr)) * maxFactor < 9e18;
}

/** ns-3's Priomap text: 16 blank-separated bands, whole numbers of 16 bits. */
bool
IsPriomapText(const std::string& text)
{
    std::istringstream words(text);
    std::string word;
    int count = 0;
    while (words >> word)
    {
        if (++count > 16 || word.find('-') != std::string::npos || !ReadsWhole<uint64_t>(word)
            || std::strtoull(word.c_str(), nullptr, 10) > 65535)
        {
            return false;
        }
    }
    return count == 16;
}

} // namespace

bool
IsValueText(Ptr<const AttributeChecker> checker, const std::string& text)
{
    std::string type = checker->GetValueTypeName();
    if (type.compare(0, 5, "ns3::") == 0)
    {
        type = type.substr(5); // global values' checkers name it without the namespace
    }
    for (unsigned char c : text)
    {
        if (std::isspace(c) && type != "StringValue" && type != "PriomapValue")
        {
            return false; // ns-3 reads one word, then aborts as the text goes on
        }
    }
    bool readable = true;
    if (type == "PriomapValue")
    {
        readable = IsPriomapText(text); // ns-3 ends the program on fewer than 16
    }
    else if (type == "DoubleValue")
    {
        readable = ReadsWhole<double>(text);
    }
    else if (type == "IntegerValue")
    {
        readable = ReadsWhole<int64_t>(text);
    }
    else if (type == "UintegerValue")
    {
        readable = text.find('-') == std::string::npos && ReadsWhole<uint64_t>(text);
    }
    else if (type == "TimeValue")
    {
        // Time(string): a number, then a unit or none (seconds); 1 y in ns bounds the factor.
        readable = IsNumberWithUnit(text,
                                    "+-0123456789.eE",
                                    {"", "y", "d", "h", "min", "s", "ms", "us", "ns", "ps", "fs"},
                                    3.2e16);
    }
    else if (type == "QueueSizeValue")
    {
        readable = IsNumberWithUnit(
            text,
            "0123456789.",
            {"p", "kp", "Kp", "Kip", "Mp", "Mip", "B", "kB", "KB", "KiB", "MB", "MiB"},
            1.1e6);
    }
    try
    {
        return readable && checker->CreateValidValue(StringValue(text)) != nullptr;
    }
    catch (const std::exception&)
    {
        return false; // e.g. std::stoul in an address's parser
    }
}

Ptr<RandomVariableStream>
RandomVariableFromText(const std::string& text, const std::string& argument)
{
    auto fail = [&](const std::string& what) {
        throw DdnnError(argument + ": expected " + what + ", got '" + text + "'");
    };
    const std::string form = "an ns-3 random variable such as "
                             "ns3::NormalRandomVariable[Mean=0|Variance=0.0025]";
    const size_t open = text.find('[');
    const std::string name = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid)
        || !tid.IsChildOf(RandomVariableStream::GetTypeId()) || !tid.HasConstructor())
    {
        fail(form);
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    if (open != std::string::npos)
    {
        if (text.back() != ']')
        {
            fail(form);
        }
        std::istringstream list(text.substr(open + 1, text.size() - open - 2));
        std::string item;
        while (std::getline(list, item, '|'))
        {
            const size_t equals = item.find('=');
            TypeId::AttributeInformation info;
            if (equals == std::string::npos
                || !tid.LookupAttributeByName(item.substr(0, equals), &info))
            {
                fail(form + ", whose attributes " + name + " has");
            }
            const std::string valueText = item.substr(equals + 1);
            Ptr<AttributeValue> value = IsValueText(info.checker, valueText)
                                            ? info.checker->CreateValidValue(StringValue(valueText))
                                            : nullptr;
            if (!value)
            {
                fail(form + ", with a valid " + item.substr(0, equals));
            }
            factory.Set(item.substr(0, equals), *value);
        }
    }
    Ptr<RandomVariableStream> variable = factory.Create<RandomVariableStream>();
    // Ranges ns-3 takes without a word and then draws from wrongly: Min above Max (a
    // uniform's draws fall outside both), a triangle's Mean outside [Min, Max], a negative
    // variance.
    DoubleValue min;
    DoubleValue max;
    DoubleValue mean;
    DoubleValue variance;
    const bool hasRange
        = variable->GetAttributeFailSafe("Min", min) && variable->GetAttributeFailSafe("Max", max);
    if (hasRange && min.Get() > max.Get())
    {
        fail(form + ", with Min at most Max");
    }
    if (hasRange && variable->GetAttributeFailSafe("Mean", mean)
        && (mean.Get() < min.Get() || mean.Get() > max.Get()))
    {
        fail(form + ", with Mean in [Min, Max]");
    }
    if (variable->GetAttributeFailSafe("Variance", variance) && variance.Get() < 0)
    {
        fail(form + ", with a Variance of at least 0");
    }
    return variable;
}

} // namespace ns3
