/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_PATTERN_H
#define BACKGROUND_PATTERN_H

#include "ns3/ddnn-flowgen.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Where the background tenant's flows come from: a registered source (the web-search
 * generator, a schedule's replay, or a user's own) that lists every flow before the run.
 *
 * BackgroundHelper creates the pattern its Pattern attribute names and installs its flows.
 */
class BackgroundPattern : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Adds `name` to the patterns a scenario can name (background pattern): a subclass whose
     * TypeId `getTypeId` returns. One line in the subclass's own file:
     * \code
     *   [[maybe_unused]] static const bool g_registered
     *       = BackgroundPattern::Register("web-search", &WebSearchPattern::GetTypeId);
     * \endcode
     * Returns true; a name registered twice is a DdnnError.
     */
    static bool Register(const std::string& name, TypeId (*getTypeId)());
    /** The TypeId registered as `name`; an unregistered name is a DdnnError. */
    static TypeId Lookup(const std::string& name);
    /** The registered names, sorted. */
    static std::vector<std::string> Names();

    /**
     * The flows among `servers` servers, sorted by start time, none starting before `start`
     * nor at or after `stop` when the pattern decides when flows start. Throws DdnnError
     * naming the attribute, file or line at fault.
     */
    virtual std::vector<ddnn_flow> MakeFlows(uint32_t servers, Time start, Time stop) const = 0;

    /**
     * Mean bytes a server sends per second under this pattern, over flows starting in
     * [start, stop): the offered load the runs report as expected utilization.
     */
    virtual double GetOfferedBytesPerSecond(uint32_t servers, Time start, Time stop) const = 0;
};

} // namespace ns3

#endif /* BACKGROUND_PATTERN_H */
