/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_FLOW_SINK_H
#define BACKGROUND_FLOW_SINK_H

#include "ns3/application.h"
#include "ns3/socket.h"

#include <unordered_map>

namespace ns3
{

class BackgroundTenant;

/**
 * \ingroup ddnn
 * \brief Receives the background flows of one server: accepts every
 * connection on the tenant's port and counts each flow's bytes.
 */
class BackgroundFlowSink : public Application
{
  public:
    static TypeId GetTypeId();
    BackgroundFlowSink();

    void Setup(Ptr<BackgroundTenant> tenant);
    /** The TCP port it listens on (its tenant's). */
    uint16_t GetPort() const;
    /** Connections accepted and not yet closed. */
    size_t GetOpenConnections() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Accepted(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandleClose(Ptr<Socket> socket);

    Ptr<BackgroundTenant> m_tenant;
    Ptr<Socket> m_listener;
    std::unordered_map<Socket*, std::pair<Ptr<Socket>, uint64_t>> m_connections; // -> flow
};

} // namespace ns3

#endif /* BACKGROUND_FLOW_SINK_H */
