/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Set-up shared by the ddnn test suites (see ddnn-test-util.h).
 */
#include "ddnn-test-util.h"

#include "../model/ns3-compat.h"

#include "ns3/double.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{
namespace ddnntest
{

std::string
WriteTempFile(const std::string& name, const std::string& text)
{
    std::string dir = SystemPath::MakeTemporaryDirectoryName();
    SystemPath::MakeDirectories(dir);
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

std::string
WriteProfile(const std::string& name, const std::vector<uint64_t>& bytes)
{
    std::string text = "layer,param_bytes,forward_ns,backward_ns\n";
    const uint64_t layers = bytes.size();
    for (uint64_t i = 0; i < layers; ++i)
    {
        text += std::to_string(i) + "," + std::to_string(bytes[i]) + ","
                + std::to_string(1000 * (layers - i)) + "," + std::to_string(2000 * (i + 1)) + "\n";
    }
    return WriteTempFile(name, text);
}

std::string
ScaledThesisProfile(uint64_t divisor)
{
    std::vector<uint64_t> bytes;
    for (uint32_t i = 0; i < 50; ++i)
    {
        bytes.push_back((i < 25 ? 444444 : i < 38 ? 1777776 : 5333328) / divisor);
    }
    return WriteProfile("thesis-scaled.csv", bytes);
}

std::string
ErrorOf(const std::function<void()>& action)
{
    std::string message;
    try
    {
        action();
    }
    catch (const DdnnError& e)
    {
        message = e.what();
    }
    Simulator::Destroy();
    return message;
}

TransportSettings
ApplyTunedTransport()
{
    TransportSettings tuned;
#if !DDNN_NS3_AT_LEAST(33)
    // ns-3 has Cubic from 3.33 on: the thesis's ns-3.30.1 runs the suites with NewReno.
    tuned.congestionControl = "NewReno";
#endif
    tuned.Apply();
    return tuned;
}

bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

size_t
Count(const std::string& text, const std::string& part)
{
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    {
        ++n;
    }
    return n;
}

std::string
SmallThesisProfile()
{
    return ScaledThesisProfile(10);
}

std::string
RunCapturingStderr(Time stop)
{
    std::ostringstream captured;
    std::streambuf* previous = std::cerr.rdbuf(captured.rdbuf());
    Simulator::Stop(stop);
    try
    {
        Simulator::Run();
    }
    catch (...)
    {
        std::cerr.rdbuf(previous);
        throw;
    }
    std::cerr.rdbuf(previous);
    return captured.str();
}

Ptr<SingleTorHelper>
GigabitRack(uint32_t servers, double lossRate)
{
    Ptr<SingleTorHelper> tor = CreateObject<SingleTorHelper>();
    tor->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    if (lossRate > 0)
    {
        tor->SetAttribute("ImpairedServers", StringValue("1,2"));
        tor->SetAttribute("LossRate", DoubleValue(lossRate));
    }
    tor->Create(servers);
    return tor;
}

Ptr<SingleTorHelper>
TunedSingleTor(uint32_t servers, const NetworkSettings& settings)
{
    ApplyTunedTransport();
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    if (settings)
    {
        settings(network);
    }
    network->Create(servers);
    return network;
}

Ptr<TrainingJob>
InstallMegabyteJob(Ptr<ServerTopology> servers, uint16_t port, uint8_t tos, uint32_t iterations)
{
    TrainingHelper helper;
    helper.SetAttribute("ProfileFile", StringValue(WriteProfile("job.csv", {1000000, 1000000})));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(1000000));
    helper.SetAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
    helper.SetAttribute("Iterations", UintegerValue(iterations));
    helper.SetAttribute("Port", UintegerValue(port));
    helper.SetAttribute("Tos", UintegerValue(tos));
    helper.Install(servers);
    return helper.GetJob();
}

Time
ComputeTimeOfRcp(double rcp, const std::string& profile, uint32_t workers, DataRate rate)
{
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(profile));
    model->Load();
    return Seconds(rcp * model->GetTotalBytes() * 2 * (1 - 1.0 / workers) * 8 / rate.GetBitRate());
}

Job::Job(uint32_t workers,
         const std::string& profile,
         uint64_t fusionBytes,
         Time compute,
         const NetworkSettings& settings)
{
    network = TunedSingleTor(workers, settings);
    idealRate = DataRate(static_cast<uint64_t>(network->GetDataRate().GetBitRate()
                                               * TransportSettings().GoodputFraction()));
    idealStepLatency
        = TransportSettings().IdealStepLatency(network->GetDataRate(), network->GetDelay());
    helper.SetAttribute("ProfileFile", StringValue(profile));
    helper.SetAttribute("FusionBufferBytes", UintegerValue(fusionBytes));
    helper.SetAttribute("ComputeTime", TimeValue(compute));
    helper.SetAttribute("Iterations", UintegerValue(1));
}

void
Job::UseIdealTransport()
{
    helper.SetTransport("ns3::IdealPartitionTransport");
    helper.SetAttribute("DataRate", DataRateValue(idealRate));
    helper.SetAttribute("StepLatency", TimeValue(idealStepLatency));
}

void
Job::Install()
{
    helper.Install(network->GetServers());
    job = helper.GetJob();
}

Time
Job::IdealAllreduce(uint64_t bytes) const
{
    const uint32_t n = network->GetServers().GetN();
    return Seconds(2.0 * (n - 1) / n * bytes * 8 / idealRate.GetBitRate())
           + 2 * (n - 1) * idealStepLatency;
}

Dumbbell::Dumbbell(const std::string& rate)
{
    ApplyTunedTransport();
    servers.Create(4);
    routers.Create(2);
    InternetStackHelper().Install(NodeContainer(servers, routers));
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", StringValue("10us"));
    Ipv4AddressHelper addresses("10.9.0.0", "255.255.255.0");
    for (uint32_t i = 0; i < 4; ++i)
    {
        addresses.Assign(link.Install(servers.Get(i), routers.Get(i / 2)));
        addresses.NewNetwork();
    }
    core = link.Install(routers.Get(0), routers.Get(1));
    addresses.Assign(core);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

Ptr<TrainingJob>
Dumbbell::InstallTenants(const std::string& priority, const std::string& check)
{
    TrainingHelper training;
    training.SetAttribute("ProfileFile", StringValue(ScaledThesisProfile(100)));
    training.SetAttribute("FusionBufferBytes", UintegerValue(53334));
    training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(2)));
    training.SetAttribute("Iterations", UintegerValue(1));
    training.SetAttribute("Priority", StringValue(priority));
    training.SetAttribute("PriorityCheck", StringValue(check));
    training.Install(servers);
    Ptr<BackgroundHelper> background = CreateObject<BackgroundHelper>();
    background->SetPatternAttribute("CdfFile",
                                    StringValue(WriteTempFile("uniform.csv", "0,0\n100000,1\n")));
    background->SetPatternAttribute("FlowRate", DoubleValue(300));
    background->SetAttribute("Stop", TimeValue(MilliSeconds(20)));
    tenant = background->Install(servers);
    return training.GetJob();
}

} // namespace ddnntest
} // namespace ns3
