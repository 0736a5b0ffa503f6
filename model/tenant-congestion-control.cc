/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tenant-congestion-control.h"

#include "ns3-compat.h"
#include "one-line-error.h"

#include "ns3/object-factory.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-state.h"

#include <iostream>

namespace ns3
{

std::string
CheckCongestionControl(const std::string& typeName)
{
    TypeId tid;
    if (typeName.empty())
    {
        return "";
    }
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "'" + typeName + "' does not exist in this ns-3 release";
    }
    // Create one rather than trust the TypeId's parent: ns-3.37 registers TcpCubic's parent as
    // TcpSocketBase.
    if (!tid.HasConstructor() || !DynamicCast<TcpCongestionOps>(ObjectFactory(typeName).Create()))
    {
        return "'" + typeName + "' is no TCP congestion control (ns3::TcpCongestionOps)";
    }
    return "";
}

std::string
ValidCongestionControl(const std::string& attribute, const std::string& typeName)
{
    const std::string problem = CheckCongestionControl(typeName);
    if (!problem.empty())
    {
        throw DdnnError(attribute + ": " + problem);
    }
    return typeName;
}

void
UseCongestionControl(Ptr<Socket> socket, const std::string& typeName)
{
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    if (typeName.empty() || !tcp)
    {
        return;
    }
    ObjectFactory factory(typeName);
    tcp->SetCongestionControlAlgorithm(factory.Create<TcpCongestionOps>());
}

namespace
{

bool
TurnsEcnOn([[maybe_unused]] TypeId congestion)
{
#if DDNN_NS3_AT_LEAST(31)
    // What it does to a fresh socket state.
    ObjectFactory factory;
    factory.SetTypeId(congestion);
    Ptr<TcpCongestionOps> algorithm = DynamicCast<TcpCongestionOps>(factory.Create());
    Ptr<TcpSocketState> state = CreateObject<TcpSocketState>();
    if (algorithm)
    {
        algorithm->Init(state);
    }
    return state->m_useEcn == TcpSocketState::On;
#else
    // Up to ns-3.30 no congestion control turns ECN on (TcpSocketBase::EcnMode does).
    return false;
#endif
}

} // namespace

void
WarnIfEcnLost(Ptr<Node> node, const std::string& typeName, uint8_t tos, const std::string& who)
{
    static bool warned = false;
    if (warned || tos == 0)
    {
        return;
    }
    TypeId congestion;
    if (!typeName.empty())
    {
        congestion = TypeId::LookupByName(typeName);
    }
    else if (Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>())
    {
        TypeIdValue socketType;
        tcp->GetAttribute("SocketType", socketType);
        congestion = socketType.Get();
    }
    else
    {
        return;
    }
    if (TurnsEcnOn(congestion))
    {
        warned = true;
        std::cerr << "ddnn: warning: " << who << " runs " << congestion.GetName() << " with IP ToS "
                  << static_cast<int>(tos)
                  << ": ns-3's TCP sends such packets Not-ECT, so ECN queues drop them at their "
                     "threshold instead of marking them (ECN needs ToS 0)\n";
    }
}

} // namespace ns3
