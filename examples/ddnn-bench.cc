/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed benchmark (not a test): what a packet-level run costs, in steady
 * state, against bare ns-3 moving the same bytes with the same TCP settings.
 *
 * Cells, 8 workers, both tenants, training at the same priority as the
 * background, on the thesis code's default scenario
 * (data/scenarios/thesis-code-default.xml) with R_cp_to_nw and the flow rate
 * changed:
 *   lightest        the grid's lightest cell: rcp 16, 23 flows/s per server
 *   heaviest        the grid's heaviest cell: rcp 2, 184 flows/s per server
 *   thesis-default  the thesis code's default run: rcp 4, 46 flows/s, 2 s
 * each under every transport profile (--profiles).
 *
 * Each measured run is a fresh child process (this program, re-executed) so
 * that its peak RSS is its own (wait4). The child times the span from the
 * end of the first iteration's compute (--warmupS, auto: the compute time
 * from rcp) to --measureS later with two scheduled probes: wall and CPU
 * seconds per simulated second and events per wall second come from that
 * span only. The thesis-default cell measures up to its 2 simulated seconds,
 * so its whole-run wall time compares with the thesis code's own run.
 *
 * Against bare ns-3: BulkSend from every server to the next (the ring's
 * pattern) moving exactly the bytes each worker received, plus one BulkSend
 * per background flow at its start time with its size, on the same network
 * and TCP settings, run for the same simulated time. The ratio is of whole
 * runs (setup included on both sides), taken as A B A B ... --repeat times;
 * the median and its min-max are printed, so one disturbed run does not
 * decide.
 *
 * --calibrationOut=FILE writes the CPU seconds per simulated second of every
 * cell and profile as a calibration table for ddnn-campaign --estimate.
 */

#include "../tools/campaign-estimate.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

struct Cell
{
    std::string name;
    double rcp;
    double flowRate;
    double wholeRunS; //!< measure up to this simulated time; 0: --measureS after the warm-up
};

const std::vector<Cell> kCells
    = {{"lightest", 16, 23, 0}, {"heaviest", 2, 184, 0}, {"thesis-default", 4, 46, 2}};

/** What one child measured. */
struct Sample
{
    double wallS{0};       //!< the whole run (RunDatacenter or the bare run)
    double windowWallS{0}; //!< the probed span
    double windowCpuS{0};
    double windowEvents{0};
    double peakRssMb{0}; //!< from wait4, in the parent
    std::string ringBytes;
};

double
CpuSeconds()
{
    struct rusage u
    {
    };
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec
           + u.ru_stime.tv_usec * 1e-6;
}

/** Wall, CPU and event count at two simulated instants. */
struct Probes
{
    std::chrono::steady_clock::time_point wall[2];
    double cpu[2]{};
    uint64_t events[2]{};

    void
    Take(int i)
    {
        wall[i] = std::chrono::steady_clock::now();
        cpu[i] = CpuSeconds();
        events[i] = Simulator::GetEventCount();
    }

    void
    Schedule(double fromS, double toS)
    {
        Simulator::Schedule(Seconds(fromS), &Probes::Take, this, 0);
        // Before the run's stop at the same instant: scheduled first, so run first.
        Simulator::Schedule(Seconds(toS), &Probes::Take, this, 1);
    }
};

/** The cell's scenario: the thesis code's default with the cell's load and the profile. */
DatacenterScenario
CellScenario(const Cell& cell, const std::string& profile, uint32_t workers, double durationS)
{
    DatacenterScenario s;
    ddnn_scenario core = ToCoreScenario(s); // the defaults, then the file's values
    const std::string path = LoadScenarioFile("scenarios/thesis-code-default.xml", core);
    ApplyCoreScenario(core, path, s);
    s.workers = workers;
    s.rcp = cell.rcp;
    s.computeMs = 0; // from rcp
    s.flowRate = cell.flowRate;
    s.transportSettings = TransportSettings::Profile(profile);
    s.durationS = durationS;
    s.warmupS = 0;
    s.cooldownS = 0;
    s.progress = "never";
    return s;
}

/** Simulated seconds of the first iteration's compute (no gradient leaves before). */
double
FirstComputeS(const DatacenterScenario& s)
{
    Ptr<DnnModel> model = CreateObject<DnnModel>();
    model->SetAttribute("ProfileFile", StringValue(s.profile));
    model->SetAttribute("FusionBufferBytes", UintegerValue(s.fusionBytes));
    model->Load();
    return s.ComputeTime(model->GetTotalBytes()).GetSeconds();
}

/**
 * Bare ns-3 on the same network: server r sends ringBytes[r+1] to server
 * r+1, and every flow is a BulkSend of its size from its start time.
 */
void
RunBare(const DatacenterScenario& s,
        const std::vector<uint64_t>& ringBytes,
        const std::vector<ddnn_flow>& flows)
{
    Ptr<SingleTorHelper> network = CreateNetwork(s, s.workers); // applies the TCP settings
    const uint32_t sendSize = s.transportSettings.sendChunkBytes;
    for (uint32_t r = 0; r < s.workers; ++r)
    {
        for (uint16_t port : {50000, 60000})
        {
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            sink.Install(network->GetServer(r));
        }
        uint32_t right = (r + 1) % s.workers;
        if (ringBytes[right] == 0)
        {
            continue; // BulkSend's MaxBytes = 0 would mean "no limit"
        }
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(network->GetServerAddress(right), 50000));
        bulk.SetAttribute("MaxBytes", UintegerValue(ringBytes[right]));
        bulk.SetAttribute("SendSize", UintegerValue(sendSize));
        bulk.Install(network->GetServer(r));
    }
    for (const ddnn_flow& f : flows)
    {
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(network->GetServerAddress(f.dst), 60000));
        bulk.SetAttribute("MaxBytes", UintegerValue(f.bytes));
        bulk.SetAttribute("SendSize", UintegerValue(sendSize));
        ApplicationContainer app = bulk.Install(network->GetServer(f.src));
        app.Start(NanoSeconds(f.start_ns));
    }
    Simulator::Stop(Seconds(s.durationS));
    Simulator::Run();
    Simulator::Destroy();
}

/**
 * The child: --child=KIND:CELL:PROFILE:WORKERS:WARMUP:MEASURE[:RING], KIND module or bare,
 * RING the bytes each worker received ('/'-separated). Prints one "sample" line.
 */
int
RunChild(const std::string& spec)
{
    std::vector<std::string> f;
    std::stringstream in(spec);
    for (std::string field; std::getline(in, field, ':');)
    {
        f.push_back(field);
    }
    if (f.size() < 6)
    {
        throw DdnnError("--child: malformed '" + spec + "'");
    }
    auto cell
        = std::find_if(kCells.begin(), kCells.end(), [&](const Cell& c) { return c.name == f[1]; });
    if (cell == kCells.end())
    {
        throw DdnnError("--child: unknown cell '" + f[1] + "'");
    }
    const double warm = std::stod(f[4]);
    const double measure = std::stod(f[5]);
    DatacenterScenario s = CellScenario(*cell, f[2], std::stoul(f[3]), warm + measure);
    std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
    Probes probes;
    probes.Schedule(warm, warm + measure);
    std::ostringstream ring;
    auto start = std::chrono::steady_clock::now();
    if (f[0] == "module")
    {
        DatacenterResult result = RunDatacenter(s, s.trainingPriority, flows, "");
        for (size_t i = 0; i < result.jobs[0].trainingBytesReceived.size(); ++i)
        {
            ring << (i ? "/" : "") << result.jobs[0].trainingBytesReceived[i];
        }
    }
    else
    {
        std::vector<uint64_t> bytes;
        std::stringstream list(f.size() > 6 ? f[6] : "");
        for (std::string b; std::getline(list, b, '/');)
        {
            bytes.push_back(std::stoull(b));
        }
        bytes.resize(s.workers, 0);
        RunBare(s, bytes, flows);
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << std::setprecision(9) << "sample " << wall << " "
              << std::chrono::duration<double>(probes.wall[1] - probes.wall[0]).count() << " "
              << probes.cpu[1] - probes.cpu[0] << " " << probes.events[1] - probes.events[0] << " "
              << (ring.str().empty() ? "-" : ring.str()) << std::endl;
    return 0;
}

/** Runs this program as a child with --child=spec; its sample, peak RSS from wait4. */
Sample
Measure(const std::string& spec)
{
    int pipeFd[2];
    if (pipe(pipeFd) != 0)
    {
        throw DdnnError(std::string("pipe: ") + std::strerror(errno));
    }
    const std::string arg = "--child=" + spec;
    pid_t pid = fork();
    if (pid < 0)
    {
        throw DdnnError(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0)
    {
        dup2(pipeFd[1], STDOUT_FILENO);
        close(pipeFd[0]);
        close(pipeFd[1]);
        execl("/proc/self/exe", "ddnn-bench", arg.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(pipeFd[1]);
    std::string out;
    char buffer[4096];
    for (ssize_t n; (n = read(pipeFd[0], buffer, sizeof buffer)) != 0;)
    {
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0)
        {
            break;
        }
        out.append(buffer, n);
    }
    close(pipeFd[0]);
    int status = 0;
    struct rusage usage
    {
    };
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
    {
    }
    Sample sample;
    std::istringstream line(out.substr(std::min(out.find("sample "), out.size())));
    std::string word;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0
        || !(line >> word >> sample.wallS >> sample.windowWallS >> sample.windowCpuS
             >> sample.windowEvents >> sample.ringBytes))
    {
        throw DdnnError("a measured run failed (" + spec.substr(0, 60) + "); see its stderr");
    }
    sample.peakRssMb = usage.ru_maxrss / 1024.0; // kB on Linux
    return sample;
}

double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/** "median (min-max)", or the value alone for one sample. */
std::string
Spread(const std::vector<double>& v, int precision)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << Median(v);
    if (v.size() > 1)
    {
        os << " (" << *std::min_element(v.begin(), v.end()) << "-"
           << *std::max_element(v.begin(), v.end()) << ")";
    }
    return os.str();
}

std::vector<std::string>
SplitList(const std::string& option, const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');)
    {
        items.push_back(item);
    }
    if (items.empty())
    {
        throw DdnnError(option + ": expected a comma-separated list, got ''");
    }
    return items;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string child;
    std::string cellsText = "lightest,heaviest,thesis-default";
    std::string profilesText = "tuned,thesis";
    std::string workersText = "8";
    std::string warmupText = "auto";
    std::string measureText = "auto";
    std::string repeatText = "3";
    bool quick = false;
    bool baseline = true;
    std::string calibrationOut;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cells", "comma-separated: lightest, heaviest, thesis-default", cellsText);
    cmd.AddValue("profiles", "comma-separated transport profiles (tuned, thesis)", profilesText);
    cmd.AddValue("workers", "servers (workers)", workersText);
    cmd.AddValue("warmupS",
                 "simulated seconds before the measured span; auto: the first iteration's "
                 "compute time",
                 warmupText);
    cmd.AddValue("measureS",
                 "simulated seconds measured after the warm-up; auto: whole iterations, at "
                 "least 0.5 s (thesis-default: up to 2 s)",
                 measureText);
    cmd.AddValue("repeat", "module and bare runs of each cell, interleaved", repeatText);
    cmd.AddValue("quick", "smoke use: 10 ms of warm-up, 20 ms measured, one run each", quick);
    cmd.AddValue("baseline", "run bare ns-3 after each ddnn run (false: no ratio)", baseline);
    cmd.AddValue("calibrationOut",
                 "write the calibration table (CPU s per simulated s) here",
                 calibrationOut);
    cmd.AddValue("child", "internal: one measured run", child);
    ParseCommandLine(cmd, argc, argv, "ddnn-bench");

    try
    {
        if (!child.empty())
        {
            return RunChild(child);
        }
        const uint32_t workers = ParseWholeNumber("--workers", workersText, 2, 250);
        uint32_t repeat = ParseWholeNumber("--repeat", repeatText, 1, 100);
        double measureS = -1; // auto
        if (measureText != "auto")
        {
            measureS = ParseNumber("--measureS", measureText, 1e-3, 100);
        }
        double warmupS = -1; // auto
        if (warmupText != "auto")
        {
            warmupS = ParseNumber("--warmupS", warmupText, 0, 100);
        }
        if (quick)
        {
            warmupS = 0.01;
            measureS = 0.02;
            repeat = 1;
        }
        std::vector<Cell> cells;
        for (const std::string& name : SplitList("--cells", cellsText))
        {
            auto it = std::find_if(
                kCells.begin(), kCells.end(), [&](const Cell& c) { return c.name == name; });
            if (it == kCells.end())
            {
                throw DdnnError("--cells: expected lightest, heaviest or thesis-default, got '"
                                + name + "'");
            }
            cells.push_back(*it);
        }
        std::vector<std::string> profiles = SplitList("--profiles", profilesText);
        for (const std::string& profile : profiles)
        {
            try
            {
                TransportSettings::Profile(profile);
            }
            catch (const DdnnError&)
            {
                throw DdnnError("--profiles: expected tuned or thesis, got '" + profile + "'");
            }
        }

        std::cout << "ddnn-bench: " << workers << " workers, both tenants at the same priority, "
                  << repeat << " x (ddnn, bare ns-3) interleaved per cell; median (min-max)\n"
                  << std::left << std::setw(15) << "cell" << std::setw(8) << "profile"
                  << std::setw(12) << "warm+meas" << std::setw(22) << "wall s/sim s"
                  << std::setw(12) << "CPU s/sim s" << std::setw(11) << "Mevents/s" << std::setw(8)
                  << "RSS MB" << std::setw(9) << "run s"
                  << "ddnn/bare\n";
        std::vector<CalibrationPoint> calibration;
        for (const std::string& profile : profiles)
        {
            for (const Cell& cell : cells)
            {
                DatacenterScenario s = CellScenario(cell, profile, workers, 1);
                const double compute = FirstComputeS(s);
                double warm = warmupS >= 0 ? warmupS : compute;
                // An iteration: the compute, plus about 1/rcp of it that the network does
                // not hide. Whole iterations, so the span holds the run's mix of phases.
                const double iteration = compute * (1 + 1 / cell.rcp);
                double measure = measureS > 0 ? measureS : std::ceil(0.5 / iteration) * iteration;
                if (cell.wholeRunS > 0 && !quick)
                {
                    measure = std::max(cell.wholeRunS - warm, 0.01);
                }
                std::ostringstream spec;
                spec << std::setprecision(9) << cell.name << ":" << profile << ":" << workers << ":"
                     << warm << ":" << measure;
                std::vector<double> wallPerSim;
                std::vector<double> cpuPerSim;
                std::vector<double> eventsPerS;
                std::vector<double> rss;
                std::vector<double> runS;
                std::vector<double> ratio;
                std::string ring;
                for (uint32_t i = 0; i < repeat; ++i)
                {
                    Sample a = Measure("module:" + spec.str());
                    ring = a.ringBytes;
                    if (baseline)
                    {
                        Sample b = Measure("bare:" + spec.str() + ":" + ring);
                        ratio.push_back(a.wallS / std::max(b.wallS, 1e-9));
                    }
                    wallPerSim.push_back(a.windowWallS / measure);
                    cpuPerSim.push_back(a.windowCpuS / measure);
                    eventsPerS.push_back(a.windowEvents / std::max(a.windowWallS, 1e-9) / 1e6);
                    rss.push_back(a.peakRssMb);
                    runS.push_back(a.wallS);
                }
                std::ostringstream window;
                window << std::fixed << std::setprecision(2) << warm << "+" << measure;
                std::ostringstream medians;
                medians << std::fixed << std::setprecision(1) << std::left << std::setw(12)
                        << Median(cpuPerSim) << std::setprecision(3) << std::setw(11)
                        << Median(eventsPerS) << std::setprecision(0) << std::setw(8) << Median(rss)
                        << std::setprecision(1) << std::setw(9) << Median(runS);
                std::cout << std::left << std::setw(15) << cell.name << std::setw(8) << profile
                          << std::setw(12) << window.str() << std::setw(22) << Spread(wallPerSim, 1)
                          << medians.str() << (ratio.empty() ? "-" : Spread(ratio, 2)) << std::endl;
                // A tiny --quick span may read 0 s of CPU; the table takes positive costs.
                calibration.push_back(
                    {profile, workers, cell.rcp, cell.flowRate, std::max(Median(cpuPerSim), 1e-4)});
            }
        }
        std::cout << "(wall and CPU per simulated second, and events per wall second, over the "
                     "measured span only; RSS and run s: the whole ddnn run; ratio: whole runs)\n";
        if (!calibrationOut.empty())
        {
            std::ostringstream comment;
            comment << "CPU seconds per simulated second, steady state, written by ddnn-bench\n"
                    << "(" << repeat << " runs per cell, median; 10 Gbit/s, training at the "
                    << "same priority). Read by ddnn-campaign --estimate.";
            WriteCalibration(calibrationOut, calibration, comment.str());
            std::cout << "calibration table: " << calibrationOut << "\n";
        }
    }
    catch (...)
    {
        return ReportFailure("ddnn-bench");
    }
    return 0;
}
