/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TENANT_KIND_H
#define TENANT_KIND_H

#include "ddnn-version.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The kinds of tenant a packet can belong to. UtilizationMeter tells them apart by the TCP
 * ports their connections listen on, not by a tag: a byte tag on every byte cost about 18 %
 * of the CPU time and 5 x the memory of a run (see doc/speed.rst, Tenant attribution).
 */
struct TenantKind
{
    /** Tenants */
    enum Tenant : uint8_t
    {
        NONE = 0,      //!< none of ddnn's tenants
        TRAINING = 1,  //!< the training jobs
        BACKGROUND = 2 //!< background flows
    };
};

/** Its name up to ddnn 0.1: it was never an ns3::Tag. */
using TenantTag DDNN_DEPRECATED("TenantTag is TenantKind from ddnn 0.2") = TenantKind;

} // namespace ns3

#endif /* TENANT_KIND_H */
