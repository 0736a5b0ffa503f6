/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_HELPER_H
#define BACKGROUND_HELPER_H

#include "ns3/background-tenant.h"
#include "ns3/ddnn-flowgen.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/server-topology.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Installs the background (web search) tenant on the servers of any
 * ServerTopology (a single ToR, a fabric, or a ServerList of the user's own).
 *
 * Flows come from the generator (Poisson arrivals at FlowRate per server,
 * sizes from CdfFile, uniform distinct endpoints, randomness from an ns-3
 * RandomVariableStream so the seed fixes the schedule) or, when ScheduleFile
 * is set, from a flow schedule CSV (flow_id,from,to,size_bytes,start_ns;
 * rows are sorted by start time). Only flows starting in [MeasureFrom,
 * MeasureUntil) count in the measurements.
 */
class BackgroundHelper : public Object
{
  public:
    static TypeId GetTypeId();
    BackgroundHelper();

    /**
     * The flows the tenant will run on `servers` servers: generated, or read
     * from ScheduleFile. Throws DdnnError naming the file, line or attribute.
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
    double GetFlowRate() const;
    /** Mean flow size of CdfFile in bytes (linear interpolation). */
    double GetMeanFlowBytes() const;

  private:
    double m_flowRate;
    std::string m_cdfFile;
    std::string m_scheduleFile;
    Time m_start;
    Time m_stop;
    Time m_measureFrom;
    Time m_measureUntil;
    uint8_t m_tos;
    int64_t m_stream;
};

} // namespace ns3

#endif /* BACKGROUND_HELPER_H */
