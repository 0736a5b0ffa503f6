/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TENANT_TAG_H
#define TENANT_TAG_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The tenants a packet can belong to. UtilizationMeter tells them apart by the TCP
 * ports their connections listen on, not by a tag: a byte tag on every byte cost about 18 %
 * of the CPU time and 5 x the memory of a run (see doc/ddnn.rst, Speed).
 */
struct TenantTag
{
    /** Tenants */
    enum Tenant : uint8_t
    {
        NONE = 0,      //!< none of ddnn's tenants
        TRAINING = 1,  //!< the training jobs
        BACKGROUND = 2 //!< background flows
    };
};

} // namespace ns3

#endif /* TENANT_TAG_H */
