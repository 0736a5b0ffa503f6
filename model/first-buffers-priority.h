/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FIRST_BUFFERS_PRIORITY_H
#define FIRST_BUFFERS_PRIORITY_H

#include "buffer-priority-policy.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Priority policy "first-k": the Count buffers holding the lowest layers (the ones the
 * next forward pass needs first) travel at Tos; the others at the transport's own ToS.
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

} // namespace ns3

#endif /* FIRST_BUFFERS_PRIORITY_H */
