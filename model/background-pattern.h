/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_PATTERN_H
#define BACKGROUND_PATTERN_H

#include "ns3/ddnn-flowgen.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "type-id-registry.h"

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
class BackgroundPattern : public Object, public RegisteredTypes<BackgroundPattern>
{
  public:
    static TypeId GetTypeId();

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

/** The registry of BackgroundPattern's choices, defined in its own file. */
template<>
NamedRegistry<TypeId (*)()>& RegisteredTypes<BackgroundPattern>::Registry();

} // namespace ns3

#endif /* BACKGROUND_PATTERN_H */
