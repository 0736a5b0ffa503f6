/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MAPPED_BUFFER_PRIORITY_H
#define MAPPED_BUFFER_PRIORITY_H

#include "buffer-priority-policy.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Priority policy "mapped": a user's mapping, "BUFFER=TOS,..." (e.g. "0=8,18=16");
 * buffers it does not name travel at the transport's own ToS. Buffer 0 holds the last layers.
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

#endif /* MAPPED_BUFFER_PRIORITY_H */
