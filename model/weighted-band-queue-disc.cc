/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "weighted-band-queue-disc.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WeightedBandQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(WeightedBandQueueDisc);

TypeId
WeightedBandQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::WeightedBandQueueDisc")
              .SetParent<QueueDisc>()
              .SetGroupName("Ddnn")
              .AddConstructor<WeightedBandQueueDisc>()
              .AddAttribute("Priomap",
                            "The priority to band mapping (PfifoFast's: ToS 0x10 band 0, 0x00 "
                            "band 1, 0x08 band 2).",
                            PriomapValue(Priomap{{1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}}),
                            MakePriomapAccessor(&WeightedBandQueueDisc::m_prio2band),
                            MakePriomapChecker())
              .AddAttribute("Weights",
                            "One positive weight per band, blank-separated: band i gets "
                            "Weights[i] / (sum over backlogged bands) of the bytes sent.",
                            StringValue("1 1 1"),
                            MakeStringAccessor(&WeightedBandQueueDisc::m_weightsText),
                            MakeStringChecker())
              .AddAttribute("QuantumBytes",
                            "Bytes a band of weight 1 may send per round (at least one MTU "
                            "keeps every band's turn at one packet or more).",
                            UintegerValue(1514),
                            MakeUintegerAccessor(&WeightedBandQueueDisc::m_quantumBytes),
                            MakeUintegerChecker<uint32_t>(1, 1u << 24));
    return tid;
}

WeightedBandQueueDisc::WeightedBandQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
    NS_LOG_FUNCTION(this);
}

WeightedBandQueueDisc::~WeightedBandQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

uint16_t
WeightedBandQueueDisc::GetBandForPriority(uint8_t priority) const
{
    return m_prio2band[priority & 0x0f];
}

bool
WeightedBandQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    uint32_t band = m_prio2band[0];
    const int32_t filtered = Classify(item);
    if (filtered == PacketFilter::PF_NO_MATCH)
    {
        SocketPriorityTag priorityTag;
        if (item->GetPacket()->PeekPacketTag(priorityTag))
        {
            band = m_prio2band[priorityTag.GetPriority() & 0x0f];
        }
    }
    else if (filtered >= 0 && static_cast<uint32_t>(filtered) < GetNQueueDiscClasses())
    {
        band = filtered;
    }
    if (band >= GetNQueueDiscClasses())
    {
        // A Priomap naming a band the disc lacks: dropped and counted, never an abort.
        DropBeforeEnqueue(item, "band out of range");
        return false;
    }
    // A child that refuses the packet drops it itself (the drop reaches this disc's stats).
    if (!GetQueueDiscClass(band)->GetQueueDisc()->Enqueue(item))
    {
        return false;
    }
    if (!m_active[band])
    {
        m_active[band] = true;
        m_deficit[band] = m_quantum[band];
        m_round.push_back(band);
        NS_LOG_LOGIC("band " << band << " backlogged, quantum " << m_quantum[band]);
    }
    return true;
}

Ptr<QueueDiscItem>
WeightedBandQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    while (!m_round.empty())
    {
        const uint32_t band = m_round.front();
        if (m_deficit[band] <= 0)
        {
            // Its turn is over: a fresh quantum, and the next band's turn.
            m_deficit[band] += m_quantum[band];
            m_round.pop_front();
            m_round.push_back(band);
            continue;
        }
        Ptr<QueueDiscItem> item = GetQueueDiscClass(band)->GetQueueDisc()->Dequeue();
        if (!item)
        {
            m_active[band] = false;
            m_round.pop_front();
            NS_LOG_LOGIC("band " << band << " empty");
            continue;
        }
        m_deficit[band] -= item->GetSize();
        return item;
    }
    return nullptr;
}

std::string
WeightedBandQueueDisc::ParseWeights(const std::string& text,
                                    uint32_t quantumBytes,
                                    std::vector<double>* weights)
{
    std::istringstream words(text);
    std::string word;
    weights->clear();
    while (words >> word)
    {
        char* end = nullptr;
        const double w = std::strtod(word.c_str(), &end);
        if (*end != '\0' || !(w > 0) || !std::isfinite(w) || w * quantumBytes > 1e12)
        {
            return "expected positive weights, got '" + word + "' in '" + text + "'";
        }
        weights->push_back(w);
    }
    if (weights->size() < 2)
    {
        return "expected a weight per band (at least 2), got '" + text + "'";
    }
    return "";
}

bool
WeightedBandQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNInternalQueues() > 0)
    {
        NS_LOG_ERROR("WeightedBandQueueDisc cannot have internal queues");
        return false;
    }
    std::vector<double> weights;
    if (const std::string wrong = ParseWeights(m_weightsText, m_quantumBytes, &weights);
        !wrong.empty())
    {
        NS_LOG_ERROR("Weights: " << wrong);
        return false;
    }
    if (GetNQueueDiscClasses() == 0)
    {
        ObjectFactory factory;
        factory.SetTypeId("ns3::FifoQueueDisc");
        for (size_t i = 0; i < weights.size(); i++)
        {
            Ptr<QueueDisc> child = factory.Create<QueueDisc>();
            child->Initialize();
            Ptr<QueueDiscClass> c = CreateObject<QueueDiscClass>();
            c->SetQueueDisc(child);
            AddQueueDiscClass(c);
        }
    }
    if (GetNQueueDiscClasses() != weights.size())
    {
        NS_LOG_ERROR("Weights: " << weights.size() << " weights for " << GetNQueueDiscClasses()
                                 << " bands");
        return false;
    }
    m_quantum.clear();
    for (double w : weights)
    {
        m_quantum.push_back(std::max<int64_t>(1, std::llround(w * m_quantumBytes)));
    }
    return true;
}

void
WeightedBandQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_deficit.assign(m_quantum.size(), 0);
    m_active.assign(m_quantum.size(), false);
    m_round.clear();
}

} // namespace ns3
