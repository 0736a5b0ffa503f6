/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef STATIC_PRIORITY_H
#define STATIC_PRIORITY_H

#include "buffer-priority-policy.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Priority policy "static": every buffer at the transport's own ToS, that is the
 * training job's Priority (same, low, a band). A job with it behaves as one without a policy,
 * and records the time its collectives spent at that ToS.
 */
class StaticPriority : public BufferPriorityPolicy
{
  public:
    static TypeId GetTypeId();
    int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const override;
};

} // namespace ns3

#endif /* STATIC_PRIORITY_H */
