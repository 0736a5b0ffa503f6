/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "random-variable-text.h"

#include "ns3/ddnn-exception.h"
#include "ns3/double.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <sstream>

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

bool
IsValueText(const std::string& valueType, const std::string& text)
{
    if (valueType == "ns3::DoubleValue")
    {
        return ReadsWhole<double>(text);
    }
    if (valueType == "ns3::IntegerValue")
    {
        return ReadsWhole<int64_t>(text);
    }
    if (valueType == "ns3::UintegerValue")
    {
        return text.find('-') == std::string::npos && ReadsWhole<uint64_t>(text);
    }
    return true; // the others' parsers return false on bad text
}

} // namespace

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
            Ptr<AttributeValue> value = IsValueText(info.checker->GetValueTypeName(), valueText)
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
