/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-helper.h"

#include "ns3/ddnn-exception.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/uinteger.h"

namespace ns3
{

TrainingHelper::TrainingHelper()
{
    m_model.SetTypeId(DnnModel::GetTypeId());
    m_job.SetTypeId(TrainingJob::GetTypeId());
    m_worker.SetTypeId(RingAllreduceWorker::GetTypeId());
}

void
TrainingHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    // The job's StopTime (no new iteration) shadows Application's (stop the worker).
    for (ObjectFactory* factory : {&m_job, &m_model, &m_worker})
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

    std::vector<Ptr<RingAllreduceWorker>> apps;
    ApplicationContainer container;
    for (uint32_t rank = 0; rank < workers.GetN(); ++rank)
    {
        Ptr<RingAllreduceWorker> app = m_worker.Create<RingAllreduceWorker>();
        UintegerValue port;
        app->GetAttribute("Port", port);
        InetSocketAddress peer(servers->GetServerAddress((rank + 1) % workers.GetN()), port.Get());
        app->Setup(job, rank, peer);
        workers.Get(rank)->AddApplication(app);
        apps.push_back(app);
        container.Add(app);
    }
    job->Setup(model, apps);
    m_lastJob = job;
    return container;
}

Ptr<TrainingJob>
TrainingHelper::GetJob() const
{
    return m_lastJob;
}

} // namespace ns3
