/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SINGLE_TOR_HELPER_H
#define SINGLE_TOR_HELPER_H

#include "ns3/egress-topology.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-disc-container.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Builds a single-rack network: N servers, each on its own
 * point-to-point link to one top-of-rack switch (an IP router).
 *
 * Every egress, at the servers and at the switch, has a PfifoFast queue disc
 * (or PrioRed, see EgressQueue) over a small device queue, so the IP ToS of a
 * flow picks its band at both hops. Note that ns-3's PfifoFast limit
 * (QueueDiscLimitPackets) covers all three bands together, not each band. Server i
 * gets 10.1.(i+1).1, the switch 10.1.(i+1).2 on that link; global routing fills the tables.
 *
 * It sets no TCP value: TransportSettings::Apply() does, on this or any topology.
 *
 * A distributed run (ns-3's MPI, Ranks above 1) splits the servers into consecutive blocks,
 * one per rank, and puts the switch on rank 0; the link delay is the lookahead.
 */
class SingleTorHelper : public EgressTopology
{
  public:
    static TypeId GetTypeId();
    SingleTorHelper();

    /** Builds the network with `servers` servers (at least 2). */
    void Create(uint32_t servers);
    /** Builds the network with Servers servers. */
    void Create() override;
    /** Servers built, or before Create() the Servers attribute. */
    uint32_t GetPlannedServerCount() const override;
    /** Throws DdnnError naming ImpairedServers when it names no server of the plan, or Ranks
     * when it splits the servers into more ranks than servers or across links without delay. */
    void CheckConfig() const override;

    Ptr<Node> GetSwitch() const;
    /** The switch's device towards server i */
    Ptr<NetDevice> GetSwitchDevice(uint32_t i) const;
    /** PfifoFast queue disc of the server's uplink */
    Ptr<QueueDisc> GetServerQueueDisc(uint32_t i) const;
    /** PfifoFast queue disc of the switch's downlink to server i */
    Ptr<QueueDisc> GetSwitchQueueDisc(uint32_t i) const;

    DataRate GetDataRate() const;
    Time GetDelay() const;

    /**
     * Which of `servers` the impairments apply to (ImpairedServers); throws DdnnError naming
     * the attribute for an index that is no server's.
     */
    std::vector<bool> ImpairedServers(uint32_t servers) const;

  private:
    /** CheckConfig's rules for `servers` servers. */
    void CheckConfig(uint32_t servers) const;

    uint32_t m_serverCount;
    uint32_t m_ranks;
    DataRate m_dataRate;
    Time m_delay;
    std::string m_impairedServers;
    Time m_addedDelay;
    DataRate m_rateCap;
    double m_lossRate;
    int64_t m_lossStream;

    Ptr<Node> m_switch;
    NetDeviceContainer m_switchDevices;
    QueueDiscContainer m_serverQueueDiscs;
    QueueDiscContainer m_switchQueueDiscs;
};

} // namespace ns3

#endif /* SINGLE_TOR_HELPER_H */
