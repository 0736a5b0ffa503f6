/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TENANT_TAG_H
#define TENANT_TAG_H

#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Byte tag naming the tenant whose application wrote the bytes.
 *
 * Applications tag the chunks they write into a TCP socket; TCP keeps byte
 * tags on the segments it cuts from them, so a device trace can attribute
 * every data packet to its tenant whatever its ToS (in the thesis's "same
 * priority" setting both tenants share one ToS).
 */
class TenantTag : public Tag
{
  public:
    /** Tenants */
    enum Tenant : uint8_t
    {
        NONE = 0,      //!< untagged (pure ACKs, handshakes)
        TRAINING = 1,  //!< the ring-allreduce training job
        BACKGROUND = 2 //!< background flows
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    TenantTag(Tenant tenant = NONE);

    Tenant GetTenant() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    Tenant m_tenant;
};

} // namespace ns3

#endif /* TENANT_TAG_H */
