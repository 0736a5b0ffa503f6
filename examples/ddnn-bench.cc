/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed benchmark (not a test): wall time of ddnn against bare ns-3 moving
 * the same bytes over the same topology, measured in the same run.
 *
 * training    the job alone at R_cp_to_nw = 4 (about 25 % link load) for
 *             --durationS, against BulkSend from every server to the next
 *             (the ring's pattern) moving exactly the bytes each worker got;
 *             and the ideal transport's speed-up over packet level.
 * datacenter  both tenants (rcp 4, 92 flows/s per server), against the same
 *             BulkSend ring plus one BulkSend per background flow, started
 *             at the flow's start time with the flow's size.
 * loads       wall time per simulated second at the thesis's lightest
 *             (rcp 16, 23 flows/s per server) and heaviest (rcp 2, 184) loads.
 *
 * Each comparison runs --repeat times and the fastest run of each kind counts:
 * absolute times on a shared machine are noise, the ratios are the result.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"
#include "ns3/internet-module.h"

#include <chrono>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/** Wall seconds of the fastest of `repeat` calls. */
double
Fastest(uint32_t repeat, const std::function<void()>& run)
{
    double best = 0;
    for (uint32_t i = 0; i < repeat; ++i)
    {
        auto start = std::chrono::steady_clock::now();
        run();
        double wall
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = i == 0 ? wall : std::min(best, wall);
    }
    return best;
}

/**
 * Bare ns-3 on the same network: server r sends ringBytes[r+1] to server
 * r+1, and every flow is a BulkSend of its size from its start time.
 * Returns the bytes the sinks received.
 */
uint64_t
RunBare(const TrainingScenario& s,
        double durationS,
        const std::vector<uint64_t>& ringBytes,
        const std::vector<ddnn_flow>& flows)
{
    Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers);
    ApplicationContainer sinks;
    for (uint32_t r = 0; r < s.workers; ++r)
    {
        for (uint16_t port : {50000, 60000})
        {
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            sinks.Add(sink.Install(network->GetServer(r)));
        }
        uint32_t right = (r + 1) % s.workers;
        if (ringBytes[right] == 0)
        {
            continue; // BulkSend's MaxBytes = 0 would mean "no limit"
        }
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(network->GetServerAddress(right), 50000));
        bulk.SetAttribute("MaxBytes", UintegerValue(ringBytes[right]));
        bulk.SetAttribute("SendSize", UintegerValue(65536));
        bulk.Install(network->GetServer(r));
    }
    for (const ddnn_flow& f : flows)
    {
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(network->GetServerAddress(f.dst), 60000));
        bulk.SetAttribute("MaxBytes", UintegerValue(f.bytes));
        bulk.SetAttribute("SendSize", UintegerValue(65536));
        ApplicationContainer app = bulk.Install(network->GetServer(f.src));
        app.Start(NanoSeconds(f.start_ns));
    }
    Simulator::Stop(Seconds(durationS));
    Simulator::Run();
    uint64_t received = 0;
    for (uint32_t i = 0; i < sinks.GetN(); ++i)
    {
        received += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
    }
    Simulator::Destroy();
    return received;
}

DatacenterScenario
Scenario(uint32_t workers, double rcp, double flowRate, double durationS)
{
    DatacenterScenario s;
    s.workers = workers;
    s.rcp = rcp;
    s.flowRate = flowRate;
    s.durationS = durationS;
    s.warmupS = 0;
    s.cooldownS = durationS / 10;
    return s;
}

/** Module against bare ns-3 moving the same bytes; flowRate 0 means training alone. */
void
Compare(const std::string& title,
        DatacenterScenario s,
        bool background,
        uint32_t repeat,
        bool withIdeal)
{
    std::vector<ddnn_flow> flows;
    if (background)
    {
        flows = MakeBackgroundFlows(s);
    }
    DatacenterResult result;
    double module = Fastest(repeat, [&] { result = RunDatacenter(s, "same", flows, ""); });
    uint64_t moduleBytes = result.backgroundBytesReceived;
    for (uint64_t b : result.trainingBytesReceived)
    {
        moduleBytes += b;
    }
    uint64_t bareBytes = 0;
    double bare = Fastest(
        repeat, [&] { bareBytes = RunBare(s, s.durationS, result.trainingBytesReceived, flows); });
    std::cout << std::fixed << std::setprecision(3) << title << ": " << s.workers
              << " workers, rcp " << s.rcp;
    if (background)
    {
        std::cout << ", " << s.flowRate << " flows/s per server (" << flows.size() << " flows)";
    }
    std::cout << ", " << s.durationS << " simulated s, fastest of " << repeat << "\n"
              << "  ddnn            " << std::setw(8) << module << " s wall, " << moduleBytes
              << " bytes delivered\n"
              << "  bare ns-3       " << std::setw(8) << bare << " s wall, " << bareBytes
              << " bytes delivered\n"
              << "  ratio ddnn/bare " << std::setw(8) << module / bare << "   (target <= 1.10)\n";
    if (withIdeal)
    {
        DatacenterScenario ideal = s;
        ideal.transport = "ideal";
        double idealWall = Fastest(repeat, [&] { RunDatacenter(ideal, "same", flows, ""); });
        std::cout << "  ideal transport " << std::setw(8) << idealWall
                  << " s wall: " << std::setprecision(0) << module / std::max(idealWall, 1e-6)
                  << " x faster than packet level\n";
    }
}

void
Load(const std::string& title, const DatacenterScenario& s)
{
    std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
    double wall = Fastest(1, [&] { RunDatacenter(s, "same", flows, ""); });
    std::cout << std::fixed << std::setprecision(1) << "  " << title << ": " << wall / s.durationS
              << " s wall per simulated second (" << s.workers << " workers, rcp " << s.rcp << ", "
              << s.flowRate << " flows/s per server, " << flows.size() << " flows in "
              << s.durationS << " s)\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string parts = "training,datacenter,loads";
    std::string workersText = "4";
    double durationS = 0.5;
    double loadDurationS = 0.6;
    std::string repeatText = "3";
    CommandLine cmd(__FILE__);
    cmd.AddValue("parts", "comma-separated: training, datacenter, loads", parts);
    cmd.AddValue("workers", "servers (workers) in the comparisons", workersText);
    cmd.AddValue("durationS", "simulated seconds of each comparison run", durationS);
    cmd.AddValue("loadDurationS", "simulated seconds of each load run (8 workers)", loadDurationS);
    cmd.AddValue("repeat", "runs of each kind in a comparison; the fastest counts", repeatText);
    ParseCommandLine(cmd, argc, argv, "ddnn-bench");
    auto wants = [&](const std::string& part) { return parts.find(part) != std::string::npos; };

    try
    {
        const uint32_t workers = ParseWholeNumber("--workers", workersText, 2, 250);
        const uint32_t repeat = ParseWholeNumber("--repeat", repeatText, 1, 100);
        for (const auto& [name, value] : {std::pair<const char*, double>{"--durationS", durationS},
                                          {"--loadDurationS", loadDurationS}})
        {
            if (!(value > 0 && value <= 100))
            {
                std::ostringstream os;
                os << name << ": expected a number in (0, 100] (s), got " << value;
                throw DdnnError(os.str());
            }
        }
        std::stringstream list(parts);
        for (std::string part; std::getline(list, part, ',');)
        {
            if (part != "training" && part != "datacenter" && part != "loads")
            {
                throw DdnnError("--parts: expected training, datacenter or loads, got '" + part
                                + "'");
            }
        }
        if (wants("training"))
        {
            Compare("training alone", Scenario(workers, 4, 1, durationS), false, repeat, true);
        }
        if (wants("datacenter"))
        {
            Compare("both tenants", Scenario(workers, 4, 92, durationS), true, repeat, false);
        }
        if (wants("loads"))
        {
            std::cout << "thesis loads, both tenants:\n";
            Load("lightest", Scenario(8, 16, 23, loadDurationS));
            Load("heaviest", Scenario(8, 2, 184, loadDurationS));
        }
    }
    catch (...)
    {
        return ReportFailure("ddnn-bench");
    }
    return 0;
}
