/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed benchmark (not a test): wall time of the training tenant against a
 * bare ns-3 baseline measured in the same run.
 *
 * 1. The training job at R_cp_to_nw = 4 (about 25 % link utilization) for
 *    --durationS simulated seconds over TCP; bytes delivered per worker are
 *    counted.
 * 2. Baseline: BulkSend from every server to the next one (the ring's
 *    pattern) on the same topology with the same TCP settings, each moving
 *    exactly the bytes that worker delivered, PacketSink at the receivers.
 * 3. The same job on the ideal transport.
 * Each is run --repeat times; the fastest run counts. Prints the ratio
 * module / baseline (target at most 1.10) and the ideal transport's speed-up.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"
#include "ns3/internet-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

struct Measurement
{
    double wallS{0};
    std::vector<uint64_t> bytesPerWorker;
};

double
WallSeconds(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Measurement
RunModule(const TrainingScenario& s, double durationS)
{
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    network->SetAttribute("DataRate", DataRateValue(DataRate(s.dataRate)));
    network->Create(s.workers);
    Ptr<DnnModel> probe = CreateObject<DnnModel>();
    probe->SetAttribute("ProfileFile", StringValue(s.profile));
    TrainingHelper training;
    training.SetAttribute("ProfileFile", StringValue(s.profile));
    training.SetAttribute("FusionBufferBytes", UintegerValue(s.fusionBytes));
    training.SetAttribute("ComputeTime", TimeValue(s.ComputeTime(probe->GetTotalBytes())));
    training.SetAttribute("StopTime", TimeValue(Seconds(durationS)));
    training.SetAttribute("Transport",
                          EnumValue(s.transport == "tcp" ? RingAllreduceWorker::TCP
                                                         : RingAllreduceWorker::IDEAL));
    training.SetAttribute("IdealDataRate",
                          DataRateValue(DataRate(static_cast<uint64_t>(
                              network->GetDataRate().GetBitRate() *
                              network->GetTcpGoodputFraction()))));
    training.SetAttribute("IdealStepLatency", TimeValue(network->GetStreamLatency()));
    training.Install(network->GetServers());
    Ptr<TrainingJob> job = training.GetJob();

    Simulator::Stop(Seconds(durationS));
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    Measurement m;
    m.wallS = WallSeconds(start);
    for (uint32_t r = 0; r < s.workers; ++r)
    {
        m.bytesPerWorker.push_back(job->GetWorker(r)->GetBytesReceived());
    }
    Simulator::Destroy();
    return m;
}

/** Server r sends to server r+1 what worker r+1 received in the module run. */
Measurement
RunBaseline(const TrainingScenario& s, double durationS, const std::vector<uint64_t>& bytes)
{
    Ptr<SingleTorHelper> network = CreateObject<SingleTorHelper>();
    network->SetAttribute("DataRate", DataRateValue(DataRate(s.dataRate)));
    network->Create(s.workers);
    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t r = 0; r < s.workers; ++r)
    {
        uint32_t right = (r + 1) % s.workers;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 50000));
        ApplicationContainer sinkApp = sink.Install(network->GetServer(right));
        sinks.push_back(DynamicCast<PacketSink>(sinkApp.Get(0)));
        InetSocketAddress peer(network->GetServerAddress(right), 50000);
        peer.SetTos(s.tos);
        BulkSendHelper bulk("ns3::TcpSocketFactory", peer);
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes[right]));
        bulk.SetAttribute("SendSize", UintegerValue(65536));
        bulk.Install(network->GetServer(r));
    }
    Simulator::Stop(Seconds(durationS));
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    Measurement m;
    m.wallS = WallSeconds(start);
    for (uint32_t r = 0; r < s.workers; ++r)
    {
        m.bytesPerWorker.push_back(sinks[r]->GetTotalRx());
    }
    Simulator::Destroy();
    return m;
}

} // namespace

int
main(int argc, char* argv[])
{
    TrainingScenario scenario;
    scenario.workers = 4;
    scenario.rcp = 4;
    double durationS = 0.5;
    uint32_t repeat = 3;
    CommandLine cmd(__FILE__);
    cmd.AddValue("workers", "workers (servers)", scenario.workers);
    cmd.AddValue("rcp", "compute-to-network ratio (4 = 25 % utilization)", scenario.rcp);
    cmd.AddValue("durationS", "simulated seconds per run", durationS);
    cmd.AddValue("repeat", "runs of each kind; the fastest counts", repeat);
    cmd.Parse(argc, argv);

    try
    {
        scenario.iterations = 1; // Validate() wants a limit; StopTime bounds the runs
        scenario.Validate();
        Measurement module;
        Measurement baseline;
        Measurement ideal;
        for (uint32_t i = 0; i < repeat; ++i)
        {
            scenario.transport = "tcp";
            Measurement m = RunModule(scenario, durationS);
            if (i == 0 || m.wallS < module.wallS)
            {
                module = m;
            }
            Measurement b = RunBaseline(scenario, durationS, module.bytesPerWorker);
            if (i == 0 || b.wallS < baseline.wallS)
            {
                baseline = b;
            }
            scenario.transport = "ideal";
            Measurement d = RunModule(scenario, durationS);
            if (i == 0 || d.wallS < ideal.wallS)
            {
                ideal = d;
            }
        }
        uint64_t moduleBytes = 0;
        uint64_t baselineBytes = 0;
        for (uint32_t r = 0; r < scenario.workers; ++r)
        {
            moduleBytes += module.bytesPerWorker[r];
            baselineBytes += baseline.bytesPerWorker[r];
        }
        std::cout << std::fixed << std::setprecision(3) << "ddnn-bench: " << scenario.workers
                  << " workers, rcp " << scenario.rcp << ", " << durationS
                  << " simulated s, fastest of " << repeat << "\n"
                  << "  module (tcp)      " << module.wallS << " s wall, " << moduleBytes
                  << " bytes delivered\n"
                  << "  bare ns-3 bulk    " << baseline.wallS << " s wall, " << baselineBytes
                  << " bytes delivered\n"
                  << "  module (ideal)    " << ideal.wallS << " s wall\n"
                  << "  ratio module/baseline   " << module.wallS / baseline.wallS
                  << "   (target <= 1.10)\n"
                  << "  ideal speed-up          " << std::setprecision(0)
                  << module.wallS / std::max(ideal.wallS, 1e-9) << " x\n";
        if (baselineBytes != moduleBytes)
        {
            std::cout << "  note: the baseline delivered " << baselineBytes << " of "
                      << moduleBytes << " bytes within " << durationS << " s\n";
        }
    }
    catch (const DdnnError& e)
    {
        std::cerr << "ddnn-bench: error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
