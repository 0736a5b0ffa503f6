/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TYPE_ID_REGISTRY_H
#define TYPE_ID_REGISTRY_H

#include "one-line-error.h"

#include "ns3/type-id.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The names a scenario gives to the subclasses of one base (the transports, the
 * topologies): name -> the subclass's TypeId. Each subclass registers itself with one line in
 * its own file (a static initializer); the base's Lookup turns a name into its TypeId.
 */
class TypeIdRegistry
{
  public:
    /** `what` names the choice in errors ("transport"). */
    explicit TypeIdRegistry(std::string what)
        : m_what(std::move(what))
    {
    }

    /** Adds `name`; returns true (to initialize a static with); a name given twice throws. */
    bool
    Register(const std::string& name, TypeId (*getTypeId)())
    {
        if (!m_types.emplace(name, getTypeId).second)
        {
            throw DdnnError(m_what + " '" + name + "': a " + m_what
                            + " of that name is already registered");
        }
        return true;
    }

    /** The TypeId registered as `name`; an unregistered name is a DdnnError naming the choices. */
    TypeId
    Lookup(const std::string& name) const
    {
        auto found = m_types.find(name);
        if (found == m_types.end())
        {
            std::string expected;
            for (const std::string& known : Names())
            {
                expected += (expected.empty() ? "" : ", ") + known;
            }
            throw DdnnError(m_what + ": expected one of " + expected + ", got '" + name + "'");
        }
        return found->second();
    }

    /** The registered names, sorted. */
    std::vector<std::string>
    Names() const
    {
        std::vector<std::string> names;
        for (const auto& entry : m_types)
        {
            names.push_back(entry.first);
        }
        return names;
    }

  private:
    std::string m_what;
    std::map<std::string, TypeId (*)()> m_types;
};

} // namespace ns3

#endif /* TYPE_ID_REGISTRY_H */
