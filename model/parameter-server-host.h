/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PARAMETER_SERVER_HOST_H
#define PARAMETER_SERVER_HOST_H

#include "collective-rank.h"

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A dedicated parameter-server host of a training job (TrainingJob's
 * ParameterServerHosts Dedicated): shard k runs as rank N+k on a node of its own.
 *
 * It computes nothing: for each fusion buffer it only runs its shard's part of the
 * parameter-server collective (every worker pushes its gradients of the shard, the host sends
 * the updated shard back). TrainingHelper::Install(workers, servers) installs it.
 */
class ParameterServerHost : public CollectiveRank
{
  public:
    static TypeId GetTypeId();
    ParameterServerHost();
    ~ParameterServerHost() override;

  protected:
    std::string DescribeCompute() const override;

  private:
    void StartApplication() override;
};

} // namespace ns3

#endif /* PARAMETER_SERVER_HOST_H */
