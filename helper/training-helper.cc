/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-helper.h"

#include "ns3/local-node.h"
#include "ns3/log.h"
#include "ns3/one-line-error.h"
#include "ns3/simulator.h"
#include "ns3/tcp-partition-transport.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingHelper");

TrainingHelper::TrainingHelper()
{
    m_model.SetTypeId(DnnModel::GetTypeId());
    m_job.SetTypeId(TrainingJob::GetTypeId());
    m_worker.SetTypeId(TrainingWorker::GetTypeId());
    m_server.SetTypeId(ParameterServerHost::GetTypeId());
    m_transport.SetTypeId(TcpPartitionTransport::GetTypeId());
}

void
TrainingHelper::SetTransport(const std::string& type)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid) || !tid.IsChildOf(PartitionTransport::GetTypeId())
        || !tid.HasConstructor())
    {
        throw DdnnError("ns3::TrainingHelper: transport '" + type
                        + "' is no ns3::PartitionTransport (e.g. ns3::TcpPartitionTransport, "
                          "ns3::IdealPartitionTransport)");
    }
    m_transport = ObjectFactory();
    m_transport.SetTypeId(tid);
}

std::string
TrainingHelper::GetTransport() const
{
    return m_transport.GetTypeId().GetName();
}

void
TrainingHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    // The job's StopTime (no new iteration) shadows Application's (stop the worker).
    for (ObjectFactory* factory : {&m_job, &m_model, &m_worker, &m_transport})
    {
        TypeId::AttributeInformation info;
        if (!factory->GetTypeId().LookupAttributeByName(name, &info))
        {
            continue;
        }
        Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
        if (!valid)
        {
            std::string type = info.checker->GetValueTypeName();
            if (info.checker->HasUnderlyingTypeInformation())
            {
                type = info.checker->GetUnderlyingTypeInformation();
            }
            throw DdnnError(factory->GetTypeId().GetName() + "::" + name + ": invalid value '"
                            + value.SerializeToString(info.checker) + "', expected " + type);
        }
        factory->Set(name, *valid);
        if (factory == &m_worker && m_server.GetTypeId().LookupAttributeByName(name, &info))
        {
            m_server.Set(name, *valid); // a rank's attribute (StartTime): the servers' too
        }
        return;
    }
    throw DdnnError("ns3::TrainingHelper: no attribute named '" + name + "'");
}

void
TrainingHelper::SetModel(Ptr<DnnModel> model)
{
    m_loadedModel = model;
}

/** Nodes as a topology (at least 2 workers); no nodes as none. */
static Ptr<ServerTopology>
ListOf(NodeContainer nodes, bool workers)
{
    if (workers && nodes.GetN() < 2)
    {
        throw DdnnError("ns3::TrainingHelper: expected at least 2 worker nodes, got "
                        + std::to_string(nodes.GetN()));
    }
    return nodes.GetN() > 0 ? Ptr<ServerTopology>(CreateObject<ServerList>(nodes))
                            : Ptr<ServerTopology>();
}

ApplicationContainer
TrainingHelper::Install(NodeContainer workers, NodeContainer servers)
{
    return InstallWithModel(m_loadedModel, ListOf(workers, true), ListOf(servers, false));
}

ApplicationContainer
TrainingHelper::Install(Ptr<ServerTopology> workers, Ptr<ServerTopology> servers)
{
    return InstallWithModel(m_loadedModel, workers, servers);
}

ApplicationContainer
TrainingHelper::Install(Ptr<ServerTopology> servers, Ptr<DnnModel> model)
{
    return InstallWithModel(model, servers, Ptr<ServerTopology>());
}

ApplicationContainer
TrainingHelper::Install(NodeContainer workers, Ptr<DnnModel> model)
{
    return InstallWithModel(model, ListOf(workers, true), Ptr<ServerTopology>());
}

ApplicationContainer
TrainingHelper::Install(NodeContainer workers, NodeContainer servers, Ptr<DnnModel> model)
{
    return InstallWithModel(model, ListOf(workers, true), ListOf(servers, false));
}

ApplicationContainer
TrainingHelper::Install(Ptr<ServerTopology> workers,
                        Ptr<ServerTopology> servers,
                        Ptr<DnnModel> model)
{
    return InstallWithModel(model, workers, servers);
}

template<typename Rank>
std::vector<Ptr<Rank>>
TrainingHelper::InstallRanks(const ObjectFactory& factory,
                             Ptr<ServerTopology> hosts,
                             uint32_t firstRank,
                             Ptr<TrainingJob> job,
                             std::vector<Ipv4Address>& addresses,
                             ApplicationContainer& container) const
{
    std::vector<Ptr<Rank>> apps;
    for (uint32_t i = 0; hosts && i < hosts->GetServerCount(); ++i)
    {
        Ptr<Rank> app = factory.Create<Rank>();
        app->Setup(job, firstRank + i, m_transport.Create<PartitionTransport>());
        if (IsLocalNode(hosts->GetServer(i)))
        {
            hosts->GetServer(i)->AddApplication(app);
        }
        else
        {
            // Another process of a distributed run runs it; the job here still knows its node.
            // No node disposes it: Simulator::Destroy does (it and the job hold each other).
            app->SetNode(hosts->GetServer(i));
            Simulator::ScheduleDestroy(&Object::Dispose, app);
        }
        apps.push_back(app);
        addresses.push_back(hosts->GetServerAddress(i));
        container.Add(app);
    }
    return apps;
}

ApplicationContainer
TrainingHelper::InstallWithModel(Ptr<DnnModel> model,
                                 Ptr<ServerTopology> workers,
                                 Ptr<ServerTopology> servers)
{
    NS_LOG_FUNCTION(this << workers->GetServerCount() << (servers ? servers->GetServerCount() : 0));
    const NodeContainer workerNodes = workers->GetServers();
    const NodeContainer serverNodes = servers ? servers->GetServers() : NodeContainer();
    if (workerNodes.GetN() < 2)
    {
        throw DdnnError("ns3::TrainingHelper: expected at least 2 worker nodes, got "
                        + std::to_string(workerNodes.GetN()));
    }
    if (!model)
    {
        model = m_model.Create<DnnModel>();
        model->Load();
    }
    // A Chakra trace is a job of as many workers as it has ranks.
    if (model->IsChakraTrace() && model->GetChakraRanks() != workerNodes.GetN())
    {
        throw DdnnError("ns3::DnnModel::ChakraTrace: the trace has "
                        + std::to_string(model->GetChakraRanks()) + " ranks, the job "
                        + std::to_string(workerNodes.GetN()) + " workers");
    }
    Ptr<TrainingJob> job = m_job.Create<TrainingJob>();
    job->CheckLayout(workerNodes.GetN(), serverNodes.GetN());
    // A dedicated server computes nothing and listens on the job's port: it needs a node of
    // its own.
    for (uint32_t k = 0; k < serverNodes.GetN(); ++k)
    {
        const Ptr<Node> node = serverNodes.Get(k);
        for (uint32_t r = 0; r < workerNodes.GetN(); ++r)
        {
            if (workerNodes.Get(r) == node)
            {
                throw DdnnError("ns3::TrainingHelper: node " + std::to_string(node->GetId())
                                + " is both worker " + std::to_string(r)
                                + " and dedicated parameter server " + std::to_string(k)
                                + ", expected a node of its own for each dedicated server");
            }
        }
        for (uint32_t j = 0; j < k; ++j)
        {
            if (serverNodes.Get(j) == node)
            {
                throw DdnnError("ns3::TrainingHelper: node " + std::to_string(node->GetId())
                                + " is dedicated parameter server " + std::to_string(j) + " and "
                                + std::to_string(k)
                                + ", expected a node of its own for each dedicated server");
            }
        }
    }

    ApplicationContainer container;
    std::vector<Ipv4Address> workerAddresses;
    std::vector<Ipv4Address> serverAddresses;
    const std::vector<Ptr<TrainingWorker>> workerApps
        = InstallRanks<TrainingWorker>(m_worker, workers, 0, job, workerAddresses, container);
    const std::vector<Ptr<ParameterServerHost>> serverApps = InstallRanks<ParameterServerHost>(
        m_server, servers, workerNodes.GetN(), job, serverAddresses, container);
    job->Setup(model, workerApps, workerAddresses, serverApps, serverAddresses);
    m_lastJob = job;
    return container;
}

Ptr<TrainingJob>
TrainingHelper::GetJob() const
{
    return m_lastJob;
}

} // namespace ns3
