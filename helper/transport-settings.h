/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRANSPORT_SETTINGS_H
#define TRANSPORT_SETTINGS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Everything of the transport that moves results (scenario element <transport>):
 * TCP's congestion control, segment size, buffers and timers, the most bytes a tenant writes
 * at once, and the band of the background's ACKs. The named profiles ("tuned", the defaults;
 * "thesis"; "linux") are those of model/ddnn-transport-profile.c, their one place.
 *
 * Nothing applies them behind a user's back: Apply() sets them as ns-3 defaults for every TCP
 * socket created afterwards, and must be called before the simulation starts, on any
 * topology (the example programs call it before building the network). Without it, ns-3's
 * own defaults hold (a 1 s minimum RTO and 536-byte segments).
 */
struct TransportSettings
{
    std::string profile;           //!< tuned | thesis | linux: where the values below came from
    std::string congestionControl; //!< NewReno | Cubic | Dctcp | LinuxReno
    std::string trainingCongestionControl;   //!< same | one of the above: the job's own
    std::string backgroundCongestionControl; //!< same | one of the above: the tenant's own
    uint32_t segmentSize;
    uint32_t socketBufferBytes;
    uint32_t initialCwnd;     //!< segments
    std::string lossRecovery; //!< prr | classic
    double minRtoMs;
    double initialRtoMs;
    double clockGranularityUs;
    double delAckTimeoutUs;
    uint32_t delAckCount;
    double maxSegLifetimeMs;
    uint32_t sendChunkBytes;
    bool backgroundAcksInDataBand;

    /** The tuned profile (the table's defaults). */
    TransportSettings();
    /** The named profile; throws DdnnError for an unknown name. */
    static TransportSettings Profile(const std::string& name);

    /**
     * Sets the TCP values as ns-3 defaults (Config::SetDefault) for the sockets created from
     * now on; throws DdnnError naming --congestionControl when this ns-3 lacks it.
     */
    void Apply() const;

    /**
     * A tenant's own congestion control (trainingCongestionControl or
     * backgroundCongestionControl) as the TypeId name its CongestionControl attribute takes:
     * empty for "same" (the stack's, congestionControl).
     */
    static std::string TenantCongestionControl(const std::string& choice);

    /** Fraction of the line rate a bulk TCP stream carries: payload over wire bytes. */
    double GoodputFraction() const;
    /** Bytes one full segment takes on a point-to-point wire (headers and PPP included). */
    uint32_t WirePacketBytes() const;

    /**
     * The ideal transport's time per ring step beyond serialization, on links of `rate` and
     * `delay`: a propagation delay per link of the path and a store-and-forward of one full
     * packet per switch (2 links on a single ToR).
     */
    Time IdealStepLatency(DataRate rate, Time delay, uint32_t links = 2) const;

  private:
    /** The values of profile `name`, a known one. */
    explicit TransportSettings(const std::string& name);
};

} // namespace ns3

#endif /* TRANSPORT_SETTINGS_H */
