/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_HELPER_H
#define BACKGROUND_HELPER_H

#include "ns3/background-pattern.h"
#include "ns3/background-tenant.h"
#include "ns3/ddnn-flowgen.h"
#include "ns3/ddnn-version.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/server-topology.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Installs the background (web search) tenant on the servers of any
 * ServerTopology (a single ToR, a fabric, or a ServerList of the user's own).
 *
 * Flows come from the BackgroundPattern registered under the Pattern attribute's name: the
 * web-search generator (WebSearchPattern: Poisson arrivals, sizes from a CDF, the seed fixes
 * them) by default, a flow schedule's replay (ScheduleReplayPattern), or a user's own; its
 * attributes are set with SetPatternAttribute. Only flows starting in [MeasureFrom,
 * MeasureUntil) count in the measurements.
 *
 * FlowRate, CdfFile, Stream and ScheduleFile on the helper itself are deprecated in 0.2 (removed in
 * 0.3): they reach the pattern when it has an attribute of that name (the web-search generator's
 * three, the replay's file; a ScheduleFile selects the replay while Pattern is web-search), and
 * SetPatternAttribute values set after them win.
 */
class BackgroundHelper : public Object
{
  public:
    static TypeId GetTypeId();
    BackgroundHelper();

    /**
     * Sets attribute `name` of the pattern this helper creates; CreatePattern throws a
     * DdnnError naming it when the pattern has no such attribute or refuses the value.
     */
    void SetPatternAttribute(const std::string& name, const AttributeValue& value);

    /** The pattern Pattern names, with its attributes set. */
    Ptr<BackgroundPattern> CreatePattern() const;

    /**
     * The flows the tenant will run on `servers` servers (the pattern's, from Start until
     * Stop). Throws DdnnError naming the file, line or attribute.
     */
    std::vector<ddnn_flow> MakeFlows(uint32_t servers) const;

    /**
     * Installs the tenant on every server of `servers` (a SingleTorHelper or any
     * ServerTopology) with the given flows (e.g. from MakeFlows, shared by two runs).
     */
    Ptr<BackgroundTenant> Install(Ptr<ServerTopology> servers,
                                  const std::vector<ddnn_flow>& flows) const;
    /** MakeFlows() then Install(). */
    Ptr<BackgroundTenant> Install(Ptr<ServerTopology> servers) const;

    /** The same on nodes with IPv4 addresses (see ServerList). */
    Ptr<BackgroundTenant> Install(NodeContainer servers, const std::vector<ddnn_flow>& flows) const;
    Ptr<BackgroundTenant> Install(NodeContainer servers) const;

    Time GetMeasureFrom() const;
    Time GetMeasureUntil() const;
    /** Mean bytes a server sends per second under the pattern, from Start until Stop. */
    double GetOfferedBytesPerSecond(uint32_t servers) const;

    /** The web-search pattern's FlowRate (the deprecated attribute's value). */
    DDNN_DEPRECATED("use CreatePattern()->GetAttribute(\"FlowRate\", value)")
    double GetFlowRate() const;
    /** The mean flow size of the web-search pattern's CDF. */
    DDNN_DEPRECATED("use GetOfferedBytesPerSecond, or WebSearchPattern::GetMeanFlowBytes")
    double GetMeanFlowBytes() const;

  private:
    std::string m_pattern;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_patternAttributes;
    double m_flowRate;          //!< deprecated: the pattern's FlowRate
    std::string m_cdfFile;      //!< deprecated: the pattern's CdfFile
    std::string m_scheduleFile; //!< deprecated: the pattern's ScheduleFile
    int64_t m_stream;           //!< deprecated: the pattern's Stream
    Time m_start;
    Time m_stop;
    Time m_measureFrom;
    Time m_measureUntil;
    uint8_t m_tos;
    std::string m_priority; //!< the tenant's Priority (a name), or empty
};

} // namespace ns3

#endif /* BACKGROUND_HELPER_H */
