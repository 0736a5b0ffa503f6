/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_FLOW_SENDER_H
#define BACKGROUND_FLOW_SENDER_H

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"

#include <unordered_map>

namespace ns3
{

class BackgroundTenant;

/**
 * \ingroup ddnn
 * \brief Sends the background flows of one server: one TCP connection per
 * flow, filled from the socket's send-space callback in bounded chunks, and
 * closed (gracefully, after the data) once every byte is written.
 */
class BackgroundFlowSender : public Application
{
  public:
    static TypeId GetTypeId();
    BackgroundFlowSender();

    void Setup(Ptr<BackgroundTenant> tenant, uint32_t server);
    /** Opens the connection of flow `index` to `dst` and sends `bytes`. */
    void StartFlow(uint64_t index, Ipv4Address dst, uint64_t bytes);
    /** Connections still writing. */
    size_t GetOpenFlows() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void Pump(Ptr<Socket> socket);

    struct Pending
    {
        Ptr<Socket> socket;
        uint64_t remaining;
        bool connected;
    };

    Ptr<BackgroundTenant> m_tenant;
    uint32_t m_server{0};
    std::unordered_map<Socket*, Pending> m_pending;
};

} // namespace ns3

#endif /* BACKGROUND_FLOW_SENDER_H */
