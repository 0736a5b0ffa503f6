/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TENANT_PRIORITY_H
#define TENANT_PRIORITY_H

#include "ns3/attribute.h"
#include "ns3/event-id.h"
#include "ns3/node-container.h"

#include <cstdint>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A tenant's priority by name (the Priority attribute of TrainingJob and
 * BackgroundTenant), as the IP ToS its sockets use, and the check that the egress queue discs
 * on its paths can act on it.
 *
 * Names, with the band each ToS takes in PfifoFast (the helpers' default egress):
 * - `same`: ToS 0x10, band 0, every tenant's default: equal priority with tenants left as
 *   they are;
 * - `low`: ToS 0x08, band 2: below tenants at `same`;
 * - `high`: ToS 0x10, band 0, the top band: above tenants that are `low` or in band 1 (it
 *   cannot be above tenants at `same`, which share band 0);
 * - `band0`, `band1`, `band2`: PfifoFast's bands by number (ToS 0x10, 0x00, 0x08).
 * The same ToS values keep this order under the helpers' other egress queue discs (PrioRed,
 * Prio4); a raw ToS goes through the tenant's Tos attribute.
 */
struct TenantPriority
{
    /** The ToS every tenant uses unless told otherwise: `same`. */
    static constexpr uint8_t DEFAULT_TOS = 0x10;

    /** What a tenant does when an egress on its paths cannot keep its ToS apart. */
    enum CheckMode
    {
        CHECK_WARN,  //!< one line on stderr at the start of the simulation
        CHECK_ERROR, //!< a DdnnError out of Simulator::Run()
        CHECK_OFF    //!< nothing
    };

    /** The ToS of priority `name`; throws DdnnError "ATTRIBUTE: expected ..., got 'NAME'". */
    static uint8_t Tos(const std::string& attribute, const std::string& name);
    /** `name` when it is a priority's (or empty); else throws as Tos(). */
    static std::string Valid(const std::string& attribute, const std::string& name);
    /** The checker of an attribute holding a CheckMode: Warn, Error, Off. */
    static Ptr<const AttributeChecker> MakeCheckModeChecker();

    /**
     * The egresses on the paths between `servers` (every ordered pair, as their routing sends
     * a packet; from each server to at most 64 others, spread over the list, beyond 65
     * servers) whose root queue disc puts one of `own` that is not DEFAULT_TOS into the same
     * band as another ToS of `own`, of `others` or DEFAULT_TOS. Returns one line naming the
     * first such egress (node, device, queue disc, the two ToS values) and how many more
     * there are, or "" when there is none. An egress without a queue disc is its device's
     * FIFO; a queue disc other than PfifoFast, or Prio without packet filters, has no bands
     * ddnn can see (FqCoDel, Fifo, Red, CoDel, a user's own).
     */
    static std::string FindSharedBand(const NodeContainer& servers,
                                      const std::set<uint8_t>& own,
                                      const std::set<uint8_t>& others);

    /**
     * Every ToS the ddnn tenants of the simulation use (TrainingJob::GetTosValues and
     * BackgroundTenant::GetTosValues of the applications on every node).
     */
    static std::set<uint8_t> TosInUse();

    /**
     * The check of a tenant, `who` (e.g. "the training job"), run at the start of the
     * simulation: FindSharedBand() over `servers` against every other ToS in use; by `mode`,
     * one warning line on stderr ("ddnn: warning: WHO ..."), a DdnnError, or nothing.
     */
    static void Check(CheckMode mode,
                      const std::string& who,
                      const NodeContainer& servers,
                      const std::set<uint8_t>& own);

    /**
     * Check() from inside the event `running` (the tenant's check, scheduled at the start of
     * the simulation). ns-3's event loop drops its reference to an event after the event
     * returns; an exception skips that, so on Error this drops it before rethrowing, and the
     * event is freed with `running` instead of leaking.
     */
    static void CheckInEvent(EventId& running,
                             CheckMode mode,
                             const std::string& who,
                             const NodeContainer& servers,
                             const std::set<uint8_t>& own);
};

} // namespace ns3

#endif /* TENANT_PRIORITY_H */
