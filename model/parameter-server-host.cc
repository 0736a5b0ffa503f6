/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parameter-server-host.h"

#include "training-job.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParameterServerHost");
NS_OBJECT_ENSURE_REGISTERED(ParameterServerHost);

TypeId
ParameterServerHost::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ParameterServerHost")
                            .SetParent<CollectiveRank>()
                            .SetGroupName("Ddnn")
                            .AddConstructor<ParameterServerHost>();
    return tid;
}

ParameterServerHost::ParameterServerHost() = default;

ParameterServerHost::~ParameterServerHost() = default;

void
ParameterServerHost::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_IF(!m_job || !GetTransport(),
                    "ParameterServerHost: install it with TrainingHelper");
    NS_LOG_INFO("parameter server " << m_rank - m_job->GetWorkerCount() << " (rank " << m_rank
                                    << ") starts");
    StartCollective();
}

std::string
ParameterServerHost::DescribeCompute() const
{
    return "dedicated parameter server, computes nothing";
}

} // namespace ns3
