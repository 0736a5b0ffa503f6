/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-setup-check.h"

#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <iostream>

namespace ns3
{

void
WarnIfNs3TcpDefaults(Ptr<Socket> socket)
{
    static bool warned = false;
    TimeValue minRto;
    UintegerValue segmentSize;
    if (warned || !socket->GetAttributeFailSafe("MinRto", minRto)
        || !socket->GetAttributeFailSafe("SegmentSize", segmentSize))
    {
        return;
    }
    if (minRto.Get() == Seconds(1) && segmentSize.Get() == 536)
    {
        warned = true;
        std::cerr << "ddnn: warning: TCP runs with ns-3's defaults (1 s minimum RTO, 536-byte "
                     "segments); call TransportSettings::Apply() before the simulation"
                  << std::endl;
    }
}

} // namespace ns3
