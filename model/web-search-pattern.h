/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WEB_SEARCH_PATTERN_H
#define WEB_SEARCH_PATTERN_H

#include "ns3/background-pattern.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The web-search tenant of the thesis: Poisson arrivals at FlowRate per server, sizes
 * from CdfFile, uniform distinct endpoints, randomness from an ns-3 RandomVariableStream (so
 * the seed fixes the flows). Registered as "web-search".
 */
class WebSearchPattern : public BackgroundPattern
{
  public:
    static TypeId GetTypeId();
    WebSearchPattern();

    std::vector<ddnn_flow> MakeFlows(uint32_t servers, Time start, Time stop) const override;
    /** FlowRate x the mean flow size of CdfFile. */
    double GetOfferedBytesPerSecond(uint32_t servers, Time start, Time stop) const override;

    /** Mean flow size of CdfFile in bytes (linear interpolation). */
    double GetMeanFlowBytes() const;

  private:
    double m_flowRate;
    std::string m_cdfFile;
    int64_t m_stream;
};

} // namespace ns3

#endif /* WEB_SEARCH_PATTERN_H */
