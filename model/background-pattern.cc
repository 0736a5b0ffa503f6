/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-pattern.h"

#include "type-id-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundPattern");

NS_OBJECT_ENSURE_REGISTERED(BackgroundPattern);

TypeId
BackgroundPattern::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BackgroundPattern").SetParent<Object>().SetGroupName("Ddnn");
    return tid;
}

namespace
{

TypeIdRegistry&
Registry()
{
    static TypeIdRegistry patterns("background pattern");
    return patterns;
}

} // namespace

bool
BackgroundPattern::Register(const std::string& name, TypeId (*getTypeId)())
{
    return Registry().Register(name, getTypeId);
}

TypeId
BackgroundPattern::Lookup(const std::string& name)
{
    return Registry().Lookup(name);
}

std::vector<std::string>
BackgroundPattern::Names()
{
    return Registry().Names();
}

} // namespace ns3
