/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TYPE_ID_REGISTRY_H
#define TYPE_ID_REGISTRY_H

#include "one-line-error.h"

#include "ns3/type-id.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The one registry shape of ddnn's C++ seams: the choices a scenario can name for one
 * seam (a transport, a topology, a queue disc), name -> Value, each added by one line in the
 * file that defines it. A name is registered once; an unknown one is a DdnnError that lists
 * the choices.
 */
template<typename Value>
class NamedRegistry
{
  public:
    /** How Names() and errors list the choices. */
    enum Order
    {
        SORTED,    //!< by name (choices registered by static initializers of several files)
        REGISTERED //!< in registration order (choices numbered by their registration)
    };

    /** `what` names the choice in errors ("transport"). */
    explicit NamedRegistry(std::string what, Order order = SORTED)
        : m_what(std::move(what))
        , m_order(order)
    {
    }

    /** Adds `name`; returns its index (registration order). A name given twice throws. */
    size_t
    Register(const std::string& name, Value value)
    {
        if (Find(name) < m_entries.size())
        {
            throw DdnnError(m_what + " '" + name + "': a " + m_what
                            + " of that name is already registered");
        }
        m_entries.emplace_back(name, std::move(value));
        return m_entries.size() - 1;
    }

    /** The index of `name`; an unregistered name is a DdnnError naming the choices. */
    size_t
    IndexOf(const std::string& name) const
    {
        const size_t i = Find(name);
        if (i == m_entries.size())
        {
            std::string expected;
            for (const std::string& known : Names())
            {
                expected += (expected.empty() ? "" : ", ") + known;
            }
            throw DdnnError(m_what + ": expected one of " + expected + ", got '" + name + "'");
        }
        return i;
    }

    /** The value registered as `name` (IndexOf's error otherwise). */
    const Value&
    Lookup(const std::string& name) const
    {
        return m_entries[IndexOf(name)].second;
    }

    /** The value of index `i` (below Size()). */
    const Value&
    At(size_t i) const
    {
        return m_entries.at(i).second;
    }

    size_t
    Size() const
    {
        return m_entries.size();
    }

    /** The registered names, in the registry's Order. */
    std::vector<std::string>
    Names() const
    {
        std::vector<std::string> names;
        for (const auto& entry : m_entries)
        {
            names.push_back(entry.first);
        }
        if (m_order == SORTED)
        {
            std::sort(names.begin(), names.end());
        }
        return names;
    }

  private:
    /** The index of `name`, or Size(). */
    size_t
    Find(const std::string& name) const
    {
        size_t i = 0;
        while (i < m_entries.size() && m_entries[i].first != name)
        {
            ++i;
        }
        return i;
    }

    std::string m_what;
    Order m_order;
    std::vector<std::pair<std::string, Value>> m_entries;
};

/**
 * \ingroup ddnn
 * \brief A seam whose choices are subclasses of `Base`, built from their TypeId: `Base`
 * derives from RegisteredTypes<Base> and gains Register, Lookup and Names. Each subclass adds
 * itself with one line in its own file:
 * \code
 *   [[maybe_unused]] static const bool g_registered
 *       = PartitionTransport::Register("tcp", &TcpPartitionTransport::GetTypeId);
 * \endcode
 * and the base's own file holds the registry, named for errors, with one line:
 * \code
 *   DDNN_TYPE_REGISTRY(PartitionTransport, "transport");
 * \endcode
 */
template<typename Base>
class RegisteredTypes
{
  public:
    /** The registry of Base's choices (one per process, in the base's own file). */
    static NamedRegistry<TypeId (*)()>& Registry();

    /** Adds `name`, the subclass whose TypeId `getTypeId` returns; returns true (to initialize
     * a static with). A name registered twice is a DdnnError. */
    static bool
    Register(const std::string& name, TypeId (*getTypeId)())
    {
        Registry().Register(name, getTypeId);
        return true;
    }

    /** The TypeId registered as `name`; an unregistered name is a DdnnError naming the
     * choices. */
    static TypeId
    Lookup(const std::string& name)
    {
        return Registry().Lookup(name)();
    }

    /** The registered names, sorted. */
    static std::vector<std::string>
    Names()
    {
        return Registry().Names();
    }
};

} // namespace ns3

/** Defines RegisteredTypes<Base>::Registry(), the one registry of a seam, in Base's own .cc
 * (inside namespace ns3); `what` names the choice in errors ("transport"). */
#define DDNN_TYPE_REGISTRY(Base, what) \
    template<> \
    NamedRegistry<TypeId (*)()>& RegisteredTypes<Base>::Registry() \
    { \
        static NamedRegistry<TypeId (*)()> registry(what); \
        return registry; \
    } \
    static_assert(true, "a registry is defined with a semicolon after it")

#endif /* TYPE_ID_REGISTRY_H */
