/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-helper.h"

#include "ns3/ddnn-exception.h"
#include "ns3/tcp-partition-transport.h"

namespace ns3
{

TrainingHelper::TrainingHelper()
{
    m_model.SetTypeId(DnnModel::GetTypeId());
    m_job.SetTypeId(TrainingJob::GetTypeId());
    m_worker.SetTypeId(TrainingWorker::GetTypeId());
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
        return;
    }
    throw DdnnError("ns3::TrainingHelper: no attribute named '" + name + "'");
}

ApplicationContainer
TrainingHelper::Install(NodeContainer workers)
{
    Ptr<DnnModel> model = m_model.Create<DnnModel>();
    model->Load();
    return Install(workers, model);
}

ApplicationContainer
TrainingHelper::Install(NodeContainer workers, Ptr<DnnModel> model)
{
    if (workers.GetN() < 2)
    {
        throw DdnnError("ns3::TrainingHelper: expected at least 2 worker nodes, got "
                        + std::to_string(workers.GetN()));
    }
    return Install(CreateObject<ServerList>(workers), model);
}

ApplicationContainer
TrainingHelper::Install(Ptr<ServerTopology> servers)
{
    Ptr<DnnModel> model = m_model.Create<DnnModel>();
    model->Load();
    return Install(servers, model);
}

ApplicationContainer
TrainingHelper::Install(Ptr<ServerTopology> servers, Ptr<DnnModel> model)
{
    const NodeContainer workers = servers->GetServers();
    if (workers.GetN() < 2)
    {
        throw DdnnError("ns3::TrainingHelper: expected at least 2 worker nodes, got "
                        + std::to_string(workers.GetN()));
    }
    Ptr<TrainingJob> job = m_job.Create<TrainingJob>();

    std::vector<Ptr<TrainingWorker>> apps;
    std::vector<Ipv4Address> addresses;
    ApplicationContainer container;
    for (uint32_t rank = 0; rank < workers.GetN(); ++rank)
    {
        Ptr<TrainingWorker> app = m_worker.Create<TrainingWorker>();
        app->Setup(job, rank, m_transport.Create<PartitionTransport>());
        workers.Get(rank)->AddApplication(app);
        apps.push_back(app);
        addresses.push_back(servers->GetServerAddress(rank));
        container.Add(app);
    }
    job->Setup(model, apps, addresses);
    m_lastJob = job;
    return container;
}

Ptr<TrainingJob>
TrainingHelper::GetJob() const
{
    return m_lastJob;
}

} // namespace ns3
