/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_HELPER_H
#define TRAINING_HELPER_H

#include "ns3/ddnn-version.h"
#include "ns3/server-topology.h"

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/dnn-model.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/parameter-server-host.h"
#include "ns3/training-job.h"
#include "ns3/training-worker.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Installs a training job on a set of servers: one TrainingWorker per
 * server (rank = position; on a ring, the right neighbour is the next rank),
 * each with its own PartitionTransport, a DnnModel and the TrainingJob that
 * syncs them.
 *
 * SetAttribute() takes the attributes of:
 * - ns3::DnnModel: ProfileFile, FusionBufferBytes, ComputeTime;
 * - ns3::TrainingJob: Collective, ParameterServers, ParameterServerHosts,
 *   BufferPriority, QueuePolicy, Barrier, FirstPass, Iterations, StopTime (no new
 *   iteration from then on), StallTimeout;
 * - ns3::TrainingWorker: ComputeScale, ComputeJitter, and Application's
 *   StartTime (which the parameter-server hosts take too);
 * - the transport (SetTransport: ns3::TcpPartitionTransport by default, with
 *   Tos, Port, SendChunkBytes; ns3::IdealPartitionTransport with DataRate,
 *   StepLatency).
 * A value out of range raises DdnnError naming the attribute.
 *
 * With ParameterServerHosts Dedicated (Collective parameter-server), the P
 * parameter servers run on nodes of their own, given as the second argument of
 * Install: one ParameterServerHost per server node (ranks N..N+P-1, in order),
 * which computes nothing and only serves its shard.
 */
class TrainingHelper
{
  public:
    TrainingHelper();

    /** Sets an attribute of the model, the job, the workers or the transport (see above). */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * How partitions travel: a PartitionTransport's TypeId name. Attributes set on the
     * previous transport type are dropped. Throws DdnnError for a name that is no
     * PartitionTransport.
     */
    void SetTransport(const std::string& type);
    /** The TypeId name of the transport Install() creates. */
    std::string GetTransport() const;

    /**
     * The model the next Install() calls use, already loaded by the caller (several jobs can
     * share one); the DnnModel attributes given to SetAttribute are then not used. A null
     * model (the default) makes each Install() create and load its own from them.
     */
    void SetModel(Ptr<DnnModel> model);

    /**
     * Installs the job on every server of `workers` (at least 2), in order around the ring:
     * a SingleTorHelper or any ServerTopology; and its dedicated parameter servers, if any
     * (ParameterServerHosts Dedicated: shard k on server k of `servers`, exactly
     * ParameterServers of them, none of them a worker). Loads the profile now, so bad input
     * fails before the run. The container holds the workers' applications, then the servers'.
     * Throws DdnnError naming the attribute or the node at fault.
     */
    ApplicationContainer Install(Ptr<ServerTopology> workers,
                                 Ptr<ServerTopology> servers = nullptr);
    /** The same on nodes with IPv4 addresses (see ServerList). */
    ApplicationContainer Install(NodeContainer workers, NodeContainer servers = NodeContainer());

    DDNN_DEPRECATED("use SetModel(model), then Install(servers)")
    ApplicationContainer Install(Ptr<ServerTopology> servers, Ptr<DnnModel> model);
    DDNN_DEPRECATED("use SetModel(model), then Install(workers)")
    ApplicationContainer Install(NodeContainer workers, Ptr<DnnModel> model);
    DDNN_DEPRECATED("use SetModel(model), then Install(workers, servers)")
    ApplicationContainer Install(Ptr<ServerTopology> workers,
                                 Ptr<ServerTopology> servers,
                                 Ptr<DnnModel> model);
    DDNN_DEPRECATED("use SetModel(model), then Install(workers, servers)")
    ApplicationContainer Install(NodeContainer workers, NodeContainer servers, Ptr<DnnModel> model);

    /** The job created by the last Install(). */
    Ptr<TrainingJob> GetJob() const;

  private:
    /** Install() with `model`, or with a model made from the attributes when it is null. */
    ApplicationContainer InstallWithModel(Ptr<DnnModel> model,
                                          Ptr<ServerTopology> workers,
                                          Ptr<ServerTopology> servers);

    /** One `Rank` per server of `hosts` (ranks firstRank on) joining `job`, each with a
     * transport of its own; adds their addresses and applications. */
    template<typename Rank>
    std::vector<Ptr<Rank>> InstallRanks(const ObjectFactory& factory,
                                        Ptr<ServerTopology> hosts,
                                        uint32_t firstRank,
                                        Ptr<TrainingJob> job,
                                        std::vector<Ipv4Address>& addresses,
                                        ApplicationContainer& container) const;

    ObjectFactory m_model;
    ObjectFactory m_job;
    ObjectFactory m_worker;
    ObjectFactory m_server; //!< dedicated parameter-server hosts
    ObjectFactory m_transport;
    Ptr<TrainingJob> m_lastJob;
    Ptr<DnnModel> m_loadedModel; //!< SetModel's, or null
};

} // namespace ns3

#endif /* TRAINING_HELPER_H */
