/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_TENANT_H
#define BACKGROUND_TENANT_H

#include "ddnn-flowgen.h"

#include "server-topology.h"
#include "tenant-priority.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class BackgroundFlowSender;
class BackgroundFlowSink;

/**
 * \ingroup ddnn
 * \brief Background tenant: a list of flows (generated or replayed), one
 * BackgroundFlowSender and one BackgroundFlowSink per server, and every
 * flow's outcome.
 *
 * Each flow is one TCP connection from its source's sender to its
 * destination's sink, opened at the flow's start time. Its completion time
 * (FCT) runs from that moment to the arrival of its last byte at the sink.
 * The sink learns which flow a connection carries from the source address and
 * port the sender registered when it opened the connection.
 */
class BackgroundTenant : public Object
{
  public:
    static constexpr uint16_t FIRST_FLOW_PORT = 10000; //!< FromFlow: above ddnn's listening ports
    static constexpr uint16_t FLOW_PORTS = 39152;      //!< FromFlow: up to the ephemeral ports

    /** One flow and what became of it. */
    struct Flow
    {
        uint64_t id;
        uint32_t src;
        uint32_t dst;
        uint64_t bytes;
        Time start;
        bool started{false};  //!< its start time came before the run ended
        uint64_t received{0}; //!< bytes the sink counted
        Time end;             //!< arrival of the last byte, when completed
        bool
        Completed() const
        {
            return started && received == bytes;
        }
    };

    static TypeId GetTypeId();
    BackgroundTenant();

    /**
     * Installs a sender and a sink on every server and schedules the flows
     * (sorted by start time; src and dst index the servers): a SingleTorHelper or any
     * ServerTopology.
     */
    void Install(Ptr<ServerTopology> servers, const std::vector<ddnn_flow>& flows);
    /** The same on nodes with IPv4 addresses (see ServerList). */
    void Install(NodeContainer servers, const std::vector<ddnn_flow>& flows);

    const std::vector<Flow>& GetFlows() const;
    /** ToS of the flows: Priority's, or Tos when no Priority is given. */
    uint8_t GetTos() const;
    /** ToS of a flow of `bytes`: BulkPriority's above BulkFlowBytes, else GetTos(). */
    uint8_t GetFlowTos(uint64_t bytes) const;
    /** ToS of the sinks' ACKs: the flows' own, or 0 (see AcksInDataBand). */
    uint8_t GetAckTos() const;
    /** Every ToS the tenant's packets carry: the flows' and the ACKs'. */
    std::set<uint8_t> GetTosValues() const;
    uint16_t GetPort() const;
    uint32_t GetSendChunkBytes() const;
    /** CongestionControl: a TcpCongestionOps TypeId name, or empty for the stack's. */
    std::string GetCongestionControl() const;
    /** Whether its segments carry SlackTags (SlackTags). */
    bool GetSlackTags() const;
    /** The deadline of a flow of `bytes` starting now (SlackFctMultiple, SlackRate). */
    int64_t GetFlowDeadlineNs(uint64_t bytes) const;

    /** A distributed run: what this process saw of the flows (those its servers started,
     * the bytes its sinks received), as text for MergeRankState in the other processes. */
    std::string GetRankState() const;
    /** Adds another process's GetRankState() to the flows. Throws DdnnError on a state of
     * other flows. */
    void MergeRankState(const std::string& state);

    /** How a flow's source port is chosen (the SourcePorts attribute). */
    enum SourcePorts
    {
        EPHEMERAL, //!< the next of the source node's ephemeral ports (49152 on)
        FROM_FLOW  //!< 10000 + the flow's index modulo 39152: the sink knows the flow by it
    };

    /** Flow `index`'s source port under FromFlow, or 0 under Ephemeral (the stack's). */
    uint16_t GetSourcePort(uint64_t index) const;

    /** Called by the applications. */
    void RegisterConnection(uint32_t src, uint16_t port, uint64_t flow);
    /** Flow index of the connection from (address, port), or UINT64_MAX. */
    uint64_t LookupConnection(Ipv4Address from, uint16_t port) const;
    void NotifyReceived(uint64_t flow, uint64_t bytes);

    /** (flow id, src, dst, bytes) */
    typedef void (*FlowStartTracedCallback)(uint64_t id,
                                            uint32_t src,
                                            uint32_t dst,
                                            uint64_t bytes);
    /** (flow id, bytes, fct) */
    typedef void (*FlowCompleteTracedCallback)(uint64_t id, uint64_t bytes, Time fct);

  protected:
    void DoDispose() override;

  private:
    void SetCongestionControl(std::string typeName);
    void SetPriority(std::string name);
    std::string GetPriority() const;
    void SetBulkPriority(std::string name);
    std::string GetBulkPriority() const;
    /** TenantPriority::Check over the tenant's servers, at the start of the simulation. */
    void CheckPriority();
    void StartFlow(size_t index);

    uint8_t m_tos;
    std::string m_priority;
    std::string m_bulkPriority; //!< a priority's name, or "none"
    uint64_t m_bulkFlowBytes;
    TenantPriority::CheckMode m_priorityCheckMode;
    EventId m_priorityCheck;
    NodeContainer m_servers;
    bool m_acksInDataBand;
    uint16_t m_port;
    uint32_t m_chunkBytes;
    std::string m_congestionControl;
    SourcePorts m_sourcePorts;
    bool m_slackTags;
    double m_slackFctMultiple;
    DataRate m_slackRate;

    std::vector<Flow> m_flows;
    std::vector<Ptr<BackgroundFlowSender>> m_senders;
    std::unordered_map<uint32_t, uint32_t> m_serverOfAddress;  // IPv4 address -> server
    std::vector<Ipv4Address> m_addresses;                      // server -> IPv4 address
    std::unordered_map<uint64_t, uint64_t> m_flowOfConnection; // server << 16 | port -> flow

    TracedCallback<uint64_t, uint32_t, uint32_t, uint64_t> m_flowStartTrace;
    TracedCallback<uint64_t, uint64_t, Time> m_flowCompleteTrace;
};

} // namespace ns3

#endif /* BACKGROUND_TENANT_H */
