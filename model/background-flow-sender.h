/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_FLOW_SENDER_H
#define BACKGROUND_FLOW_SENDER_H

#include "tcp-stream-sender.h"

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
 * flow, written by a TcpStreamSender and closed (gracefully, after the data)
 * once every byte is in the socket.
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
    /** The tenant whose flows it sends. */
    Ptr<BackgroundTenant> GetTenant() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Written(Ptr<TcpStreamSender> flow);
    void ConnectFailed(Ptr<TcpStreamSender> flow);

    Ptr<BackgroundTenant> m_tenant;
    uint32_t m_server{0};

    /** A sender's hash: its address, as ns-3's std::hash of a Ptr (none before ns-3.35). */
    struct SenderHash
    {
        std::size_t
        operator()(const Ptr<TcpStreamSender>& sender) const
        {
            return std::hash<const TcpStreamSender*>()(PeekPointer(sender));
        }
    };

    std::unordered_map<Ptr<TcpStreamSender>, uint64_t, SenderHash> m_open; //!< -> flow index
};

} // namespace ns3

#endif /* BACKGROUND_FLOW_SENDER_H */
