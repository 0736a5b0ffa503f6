/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BUFFER_PRIORITY_POLICY_H
#define BUFFER_PRIORITY_POLICY_H

#include "dnn-model.h"

#include "ns3/object.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Chooses the IP ToS (hence the PfifoFast band) each fusion buffer's collective travels
 * at: the building block of adaptive de-prioritisation. Without a policy (TrainingJob's
 * BufferPriority unset) every buffer travels at the transport's own Tos.
 *
 * A transport with bands keeps one connection per ToS in use to each peer; since the syncer
 * runs one buffer at a time on all workers, the bytes of a buffer never overtake those of the
 * one before.
 */
class BufferPriorityPolicy : public Object
{
  public:
    static TypeId GetTypeId();

    /** The ToS of buffer `buffer` of `model`, or -1 for the transport's own. */
    virtual int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const = 0;
};

/**
 * \ingroup ddnn
 * \brief The Count buffers holding the lowest layers (the ones the next forward pass needs
 * first) travel at Tos; the others at the transport's own ToS.
 */
class FirstBuffersPriority : public BufferPriorityPolicy
{
  public:
    static TypeId GetTypeId();
    int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const override;

  private:
    uint32_t m_count;
    uint8_t m_tos;
};

/**
 * \ingroup ddnn
 * \brief A user's mapping, "BUFFER=TOS,..." (e.g. "0=8,18=16"); buffers it does not name
 * travel at the transport's own ToS. Buffer 0 holds the last layers.
 */
class MappedBufferPriority : public BufferPriorityPolicy
{
  public:
    static TypeId GetTypeId();
    int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const override;

  private:
    void SetMap(std::string text);
    std::string GetMap() const;

    std::string m_text;
    std::map<uint32_t, uint8_t> m_map;
};

} // namespace ns3

#endif /* BUFFER_PRIORITY_POLICY_H */
