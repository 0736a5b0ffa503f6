/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-scenario.h"

#include "progress-meter.h"
#include "scenario-file.h"
#include "single-tor-helper.h"
#include "training-helper.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-exception.h"
#include "ns3/ddnn-profile.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

TrainingScenario::TrainingScenario()
{
    // One set of defaults for files and command lines: the core's parameter table.
    ddnn_scenario defaults;
    ddnn_scenario_defaults(&defaults);
    ApplyCoreScenario(defaults, "", *this);
}

void
TrainingScenario::AddArguments(CommandLine& cmd)
{
    // The scenario's own parameters come from the core's table (ParseArguments).
    cmd.AddValue("outDir", "folder for the CSV files", outDir);
    cmd.AddValue(
        "progress", "progress on stderr: auto (when a terminal), always or never", progress);
}

void
TrainingScenario::Validate() const
{
    auto fail = [](const std::string& argument, const std::string& what) {
        throw DdnnError("--" + argument + ": " + what);
    };
    CheckRanges(ToCoreScenario(*this)); // each value within its parameter's range
    if (!(computeMs > 0) && !(rcp > 0))
    {
        fail("computeMs", "expected a positive compute time in ms (or give --rcp)");
    }
    if (iterations == 0 && !(stopS > 0))
    {
        fail("iterations", "give a number of iterations or a positive --stopS");
    }
    if (parameterServers > workers)
    {
        fail("parameterServers",
             "expected at most --workers=" + std::to_string(workers) + " parameter servers, got "
                 + std::to_string(parameterServers));
    }
    ProgressMeter::Enabled(progress); // throws on an unknown mode
    DataRateValue rate;
    if (!rate.DeserializeFromString(dataRate, MakeDataRateChecker())
        || rate.Get().GetBitRate() == 0)
    {
        fail("dataRate", "expected a rate such as 10Gbps, got '" + dataRate + "'");
    }
    if (!rateCap.empty()
        && (!rate.DeserializeFromString(rateCap, MakeDataRateChecker())
            || rate.Get().GetBitRate() == 0))
    {
        fail("rateCap",
             "expected a rate such as 1Gbps (or nothing for no cap), got '" + rateCap + "'");
    }
}

Time
TrainingScenario::ComputeTime(uint64_t modelBytes) const
{
    if (computeMs > 0)
    {
        return NanoSeconds(std::llround(computeMs * 1e6));
    }
    double networkS
        = modelBytes * 2.0 * (1.0 - 1.0 / workers) * 8 / DataRate(dataRate).GetBitRate();
    // The profile's own bound on compute: far inside ns-3's signed 64-bit nanoseconds.
    const double ns = rcp * networkS * 1e9;
    if (!(ns <= static_cast<double>(DDNN_PROFILE_MAX_COMPUTE_NS)))
    {
        std::ostringstream os;
        os << "--rcp: " << rcp << " gives a compute time of " << ns / 1e9
           << " s per iteration at --dataRate=" << dataRate << ", more than 10^6 s";
        throw DdnnError(os.str());
    }
    return NanoSeconds(std::llround(ns));
}

Time
IdealStepLatency(DataRate rate, Time delay, const TransportSettings& transport)
{
    return 2 * delay + rate.CalculateBytesTxTime(transport.WirePacketBytes());
}

std::string
TransportTypeOf(const std::string& transport)
{
    return transport == "tcp" ? "ns3::TcpPartitionTransport" : "ns3::IdealPartitionTransport";
}

Ptr<SingleTorHelper>
CreateNetwork(const TrainingScenario& scenario, uint32_t servers)
{
    scenario.transportSettings.Apply();
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    network->SetAttribute("DataRate", DataRateValue(DataRate(scenario.dataRate)));
    network->SetAttribute("Delay", TimeValue(NanoSeconds(std::llround(scenario.delayUs * 1e3))));
    network->SetAttribute("LossRate", DoubleValue(scenario.lossRate));
    network->SetAttribute("AddedDelay",
                          TimeValue(NanoSeconds(std::llround(scenario.addedDelayUs * 1e3))));
    network->SetAttribute(
        "RateCap", DataRateValue(DataRate(scenario.rateCap.empty() ? "0bps" : scenario.rateCap)));
    network->SetAttribute("ImpairedServers", StringValue(scenario.impairedServers));
    network->SetAttribute("QueueDisc",
                          EnumValue(scenario.queueDisc == "prio-red" ? EgressQueue::PRIO_RED
                                                                     : EgressQueue::PFIFO_FAST));
    network->SetAttribute("EcnThresholdPackets", UintegerValue(scenario.ecnThresholdPackets));
    network->Create(servers);
    return network;
}

InstalledTraining
InstallTraining(const TrainingScenario& scenario, Ptr<SingleTorHelper> network)
{
    // The model is read once: its bytes size the compute time from --rcp.
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(scenario.profile));
    model->SetAttribute("FusionBufferBytes", UintegerValue(scenario.fusionBytes));
    model->Load();
    model->SetComputeTime(scenario.ComputeTime(model->GetTotalBytes()));

    TrainingHelper training;
    training.SetAttribute(
        "QueuePolicy",
        EnumValue(scenario.queue == "fifo" ? TrainingJob::FIFO : TrainingJob::PRIORITY));
    training.SetAttribute("Collective", StringValue(scenario.collective));
    training.SetAttribute("ParameterServers", UintegerValue(scenario.parameterServers));
    if (scenario.highPriorityBuffers > 0)
    {
        Ptr<FirstBuffersPriority> first = CreateObject<FirstBuffersPriority>();
        first->SetAttribute("Count", UintegerValue(scenario.highPriorityBuffers));
        first->SetAttribute("Tos", UintegerValue(0x10));
        training.SetAttribute("BufferPriority", PointerValue(first));
    }
    training.SetAttribute("Barrier", BooleanValue(scenario.barrier));
    training.SetAttribute("Iterations", UintegerValue(scenario.iterations));
    training.SetAttribute("StopTime", TimeValue(Seconds(scenario.stopS)));
    training.SetAttribute("StallTimeout",
                          TimeValue(NanoSeconds(std::llround(scenario.stallTimeoutMs * 1e6))));
    InstalledTraining installed;
    // The ideal transport moves payload at the rate TCP can reach on these links.
    const TransportSettings& transport = scenario.transportSettings;
    installed.idealRate = DataRate(
        static_cast<uint64_t>(network->GetDataRate().GetBitRate() * transport.GoodputFraction()));
    installed.idealStepLatency
        = IdealStepLatency(network->GetDataRate(), network->GetDelay(), transport);
    training.SetTransport(TransportTypeOf(scenario.transport));
    if (scenario.transport == "tcp")
    {
        training.SetAttribute("Tos", UintegerValue(scenario.tos));
        training.SetAttribute("SendChunkBytes", UintegerValue(transport.sendChunkBytes));
        training.SetAttribute("CongestionControl",
                              StringValue(TransportSettings::TenantCongestionControl(
                                  transport.trainingCongestionControl)));
    }
    else
    {
        training.SetAttribute("DataRate", DataRateValue(installed.idealRate));
        training.SetAttribute("StepLatency", TimeValue(installed.idealStepLatency));
    }
    NodeContainer workers;
    for (uint32_t i = 0; i < scenario.workers; ++i)
    {
        workers.Add(network->GetServer(i));
    }
    training.Install(workers, model);
    installed.job = training.GetJob();
    return installed;
}

TrainingRunResult
RunTraining(const TrainingScenario& scenario, const std::string& outDir)
{
    scenario.Validate();
    RngSeedManager::SetSeed(scenario.seed);
    Ptr<SingleTorHelper> network = CreateNetwork(scenario, scenario.workers);
    InstalledTraining training = InstallTraining(scenario, network);
    TrainingRecorder recorder(training.job);
    {
        Time end = scenario.stopS > 0
                       ? Seconds(scenario.stopS)
                       : scenario.iterations * training.job->GetModel()->GetComputeTime();
        ProgressMeter progress(end, scenario.progress);
        Simulator::Run();
    }
    TrainingRunResult result;
    result.summary = recorder.Summarize(training.idealRate, training.idealStepLatency);
    result.modelBytes = training.job->GetModel()->GetTotalBytes();
    if (!outDir.empty())
    {
        recorder.WriteCsv(outDir);
    }
    Simulator::Destroy();
    return result;
}

} // namespace ns3
