/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ORACLE_PRIORITY_H
#define ORACLE_PRIORITY_H

#include "buffer-priority-policy.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Priority policy "oracle": per-buffer priorities chosen offline from a reference run,
 * the buffers.csv (ReferenceFile) of the same job run with a priority policy, at low priority.
 * A buffer whose collective ended after its deadline (the next forward pass waited for it) in
 * at least half of the reference's iterations travels at HighTos, every other at LowTos: a
 * reference for what an online policy (slack-adaptive) leaves on the table.
 */
class OraclePriority : public BufferPriorityPolicy
{
  public:
    static TypeId GetTypeId();
    OraclePriority();

    /** Reads the reference for `model`'s buffers; throws DdnnError naming the file. */
    void Prepare(Ptr<const DnnModel> model) override;
    int GetTos(Ptr<const DnnModel> model, uint32_t buffer) const override;
    /** HighTos: a raised buffer's ACKs must not wait behind the lowered ones. */
    int GetAckTos() const override;

  private:
    std::string m_referenceFile;
    uint8_t m_lowTos;
    uint8_t m_highTos;
    std::vector<uint8_t> m_raise; //!< per buffer, once prepared
};

} // namespace ns3

#endif /* ORACLE_PRIORITY_H */
