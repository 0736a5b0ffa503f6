/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-scenario.h"

#include "progress-meter.h"
#include "single-tor-helper.h"
#include "training-helper.h"

#include "ns3/boolean.h"
#include "ns3/ddnn-data-path.h"
#include "ns3/ddnn-exception.h"
#include "ns3/enum.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

TrainingScenario::TrainingScenario()
    : profile(DdnnDataPath("thesis-default-profile.csv"))
{
}

void
TrainingScenario::AddArguments(CommandLine& cmd)
{
    cmd.AddValue("workers", "number of workers (servers), at least 2", workers);
    cmd.AddValue("profile", "DNN profile CSV (layer,param_bytes,forward_ns,backward_ns)", profile);
    cmd.AddValue("fusionBytes", "largest fusion buffer in bytes", fusionBytes);
    cmd.AddValue("computeMs", "compute time per iteration in ms (or give --rcp)", computeMs);
    cmd.AddValue(
        "rcp", "compute-to-network ratio R_cp_to_nw, sets the compute time (eq. 5.1)", rcp);
    cmd.AddValue("queue", "transmission queue: fifo or priority", queue);
    cmd.AddValue("barrier", "inter-iteration barrier: true or false", barrier);
    cmd.AddValue("tos", "IP ToS of the training sockets (0x10 band 0, 0 band 1, 0x08 band 2)", tos);
    cmd.AddValue("transport", "tcp (packets) or ideal (analytic)", transport);
    cmd.AddValue("iterations", "iterations to train (0: until --stopS)", iterations);
    cmd.AddValue("stopS", "no iteration starts after this many seconds (0: no limit)", stopS);
    cmd.AddValue("dataRate", "link rate, e.g. 10Gbps", dataRate);
    cmd.AddValue("delayUs", "link propagation delay in microseconds", delayUs);
    cmd.AddValue("seed", "random seed", seed);
    cmd.AddValue(
        "stallTimeoutMs", "end the run when nothing progresses this long (ms)", stallTimeoutMs);
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
    if (workers < 2)
    {
        fail("workers", "expected at least 2, got " + std::to_string(workers));
    }
    if (queue != "fifo" && queue != "priority")
    {
        fail("queue", "expected fifo or priority, got '" + queue + "'");
    }
    if (transport != "tcp" && transport != "ideal")
    {
        fail("transport", "expected tcp or ideal, got '" + transport + "'");
    }
    if (tos > 255)
    {
        fail("tos", "expected 0..255, got " + std::to_string(tos));
    }
    if (fusionBytes < 1)
    {
        fail("fusionBytes", "expected at least 1 byte, got 0");
    }
    if (rcp < 0 || !std::isfinite(rcp))
    {
        fail("rcp", "expected a positive ratio");
    }
    if (computeMs < 0 || (!(computeMs > 0) && !(rcp > 0)))
    {
        fail("computeMs",
             "expected a positive compute time in ms (or give --rcp), got "
                 + std::to_string(computeMs));
    }
    if (iterations == 0 && !(stopS > 0))
    {
        fail("iterations", "give a number of iterations or a positive --stopS");
    }
    if (stopS < 0)
    {
        fail("stopS", "expected 0 or more seconds");
    }
    if (delayUs < 0)
    {
        fail("delayUs", "expected 0 or more microseconds");
    }
    if (!(stallTimeoutMs > 0))
    {
        fail("stallTimeoutMs", "expected a positive time");
    }
    if (seed == 0)
    {
        fail("seed", "expected a positive seed");
    }
    ProgressMeter::Enabled(progress); // throws on an unknown mode
    DataRateValue rate;
    if (!rate.DeserializeFromString(dataRate, MakeDataRateChecker())
        || rate.Get().GetBitRate() == 0)
    {
        fail("dataRate", "expected a rate such as 10Gbps, got '" + dataRate + "'");
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
    return NanoSeconds(std::llround(rcp * networkS * 1e9));
}

Ptr<SingleTorHelper>
CreateNetwork(const TrainingScenario& scenario, uint32_t servers)
{
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    network->SetAttribute("DataRate", DataRateValue(DataRate(scenario.dataRate)));
    network->SetAttribute("Delay", TimeValue(NanoSeconds(std::llround(scenario.delayUs * 1e3))));
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
    training.SetAttribute("Barrier", BooleanValue(scenario.barrier));
    training.SetAttribute("Iterations", UintegerValue(scenario.iterations));
    training.SetAttribute("StopTime", TimeValue(Seconds(scenario.stopS)));
    training.SetAttribute("StallTimeout",
                          TimeValue(NanoSeconds(std::llround(scenario.stallTimeoutMs * 1e6))));
    training.SetAttribute("Tos", UintegerValue(scenario.tos));
    training.SetAttribute("Transport",
                          EnumValue(scenario.transport == "tcp" ? RingAllreduceWorker::TCP
                                                                : RingAllreduceWorker::IDEAL));
    InstalledTraining installed;
    // The ideal transport moves payload at the rate TCP can reach on these links.
    installed.idealRate = DataRate(static_cast<uint64_t>(network->GetDataRate().GetBitRate()
                                                         * network->GetTcpGoodputFraction()));
    installed.idealStepLatency = network->GetStreamLatency();
    training.SetAttribute("IdealDataRate", DataRateValue(installed.idealRate));
    training.SetAttribute("IdealStepLatency", TimeValue(installed.idealStepLatency));
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
