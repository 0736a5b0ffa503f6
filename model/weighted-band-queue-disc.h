/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WEIGHTED_BAND_QUEUE_DISC_H
#define WEIGHTED_BAND_QUEUE_DISC_H

#include "ns3/prio-queue-disc.h"
#include "ns3/queue-disc.h"

#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * Weighted deficit round robin over priority bands: a predictable share of the link per
 * tenant instead of strict priority. Packets are classified into bands as PrioQueueDisc
 * does (packet filters, else the socket priority through the Priomap, so the IP ToS picks
 * the band); each band is a child queue disc (FifoQueueDisc of 1000 packets by default).
 * Backlogged bands are served in turn, each up to its quantum (Weights[i] x QuantumBytes
 * bytes) per round, so over time band i gets Weights[i] / (sum of the backlogged bands'
 * weights) of the bytes sent; an idle band's share goes to the others.
 */
class WeightedBandQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();

    /**
     * Reads Weights' text: at least two blank-separated positive weights, each times
     * `quantumBytes` at most 10^12. Returns "" and fills `weights`, or what is wrong.
     */
    static std::string ParseWeights(const std::string& text,
                                    uint32_t quantumBytes,
                                    std::vector<double>* weights);
    WeightedBandQueueDisc();
    ~WeightedBandQueueDisc() override;

    /** The band the Priomap gives packets of socket priority \p priority (0 to 15). */
    uint16_t GetBandForPriority(uint8_t priority) const;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    Priomap m_prio2band;            //!< Priority to band mapping
    std::string m_weightsText;      //!< The Weights attribute, one positive number per band
    uint32_t m_quantumBytes;        //!< Bytes per unit of weight in one round
    std::vector<int64_t> m_quantum; //!< Per band: bytes it may send per round
    std::vector<int64_t> m_deficit; //!< Per band: bytes it may still send in this round
    std::vector<bool> m_active;     //!< Per band: in the round-robin list
    std::deque<uint32_t> m_round;   //!< Backlogged bands, the one being served first
};

} // namespace ns3

#endif /* WEIGHTED_BAND_QUEUE_DISC_H */
