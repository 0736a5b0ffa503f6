/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-pattern.h"

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

DDNN_TYPE_REGISTRY(BackgroundPattern, "background pattern");

} // namespace ns3
