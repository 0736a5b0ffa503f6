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
 * each under every transport profile (--profiles). More cells on request
 * (--cells): the grid's two other corners (rcp2-flows23, rcp16-flows184), for
 * the calibration table, and leaf-spine-32/64/128 (issue 13's speed figures).
 *
 * Each measured run is a fresh child process (this program, re-executed) so
 * that its peak RSS is its own (wait4). The child times the span from the
 * end of the first iteration's compute (--warmupS, auto: the compute time
 * from rcp) to --measureS later with two scheduled probes: wall and CPU
 * seconds per simulated second and events per wall second come from that
 * span only. The thesis-default cell measures up to its 2 simulated seconds,
 * so its whole-run wall time compares with the thesis code's own run.
 *
 * Against bare ns-3: every worker's ring sends, recorded in the ddnn run,
 * replayed at their instants into a connection to the next worker
 * (ReplaySender; --bare=paced: the same, fed at once and capped), plus one connection per
 * background flow from its start time writing its size, with the tenants'
 * ToS, on the same network and TCP settings, for the same simulated time.
 * The ratios (of wall and of CPU time) are of whole runs (setup included on
 * both sides), taken as A B A B ... --repeat times; the median and its
 * min-max are printed, so one disturbed run does not decide.
 *
 * --calibrationOut=FILE writes the CPU seconds per simulated second of every
 * cell and profile as a calibration table for ddnn-campaign --estimate.
 */

#include "../model/ns3-compat.h"

#include "runner/ddnn-scenario-params.h"
#include "runner/runner.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
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
    double wholeRunS;   //!< measure up to this simulated time; 0: --measureS after the warm-up
    uint32_t leaves{0}; //!< a leaf-spine of leaves x serversPerLeaf, all workers; 0: single ToR
    uint32_t serversPerLeaf{0};
    uint32_t spines{0};
};

/*
 * The grid's corners (data/scenarios/thesis-grid.xml: rcp 16..2 x 23..184 flows/s) and the
 * thesis code's default, on one rack of --workers servers; and issue 13's leaf-spine cells:
 * every server a worker, rcp 4 (eq. 5.2's expected training utilization 1/rcp = 25 %), 46
 * flows/s per server, 2 spines. The default --cells are the first three.
 */
const std::vector<Cell> kCells = {
    {"lightest", 16, 23, 0},
    {"heaviest", 2, 184, 0},
    {"thesis-default", 4, 46, 2},
    {"rcp2-flows23", 2, 23, 0},
    {"rcp16-flows184", 16, 184, 0},
    {"leaf-spine-32", 4, 46, 0, 4, 8, 2},
    {"leaf-spine-64", 4, 46, 0, 8, 8, 2},
    {"leaf-spine-128", 4, 46, 0, 16, 8, 2},
};

/** A cell of kCells by name, or any single-ToR load named rcpR-flowsF; false if neither. */
bool
FindCell(const std::string& name, Cell& cell)
{
    for (const Cell& c : kCells)
    {
        if (c.name == name)
        {
            cell = c;
            return true;
        }
    }
    double rcp = 0;
    double flowRate = 0;
    int end = 0;
    if (std::sscanf(name.c_str(), "rcp%lf-flows%lf%n", &rcp, &flowRate, &end) == 2
        && end == static_cast<int>(name.size()) && rcp > 0 && rcp <= 1e6 && flowRate > 0
        && flowRate <= 1e5)
    {
        cell = {name, rcp, flowRate, 0};
        return true;
    }
    return false;
}

bool
IsFabric(const Cell& cell)
{
    return cell.leaves > 0;
}

/** The workers of a cell: --workers on one rack, every server of a leaf-spine. */
uint32_t
CellWorkers(const Cell& cell, uint32_t workers)
{
    return IsFabric(cell) ? cell.leaves * cell.serversPerLeaf : workers;
}

/** What one child measured. */
struct Sample
{
    double wallS{0};       //!< the whole run (RunDatacenter or the bare run)
    double windowWallS{0}; //!< the probed span
    double windowCpuS{0};
    double windowEvents{0};
    double peakRssMb{0}; //!< from wait4, in the parent
    double cpuS{0};      //!< the whole child's user and system CPU, from wait4
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

/** What every cell's scenario gets besides the cell, passed to the children as options. */
/**
 * The scenario options the bench takes, with the table's flags, checks and help. Workers and
 * the training priority name the cell (its spec); the others, when given, override every
 * cell's value (the band limit otherwise each profile's, the policy static, the queue disc
 * pfifo-fast; the bare runs keep PfifoFast whatever it is).
 */
const std::vector<std::string> kTableOptions{"topology.workers",
                                             "priority.training",
                                             "transport.host-band-packets",
                                             "training.priority-policy",
                                             "topology.queue-disc"};

/** The table options that override the cells' values, as the command line gave them. */
struct CellOptions
{
    std::vector<std::string> given; //!< "--flag=value", passed on to each measured run
    ddnn_scenario values;           //!< the bench's defaults with the given values
};

/** Whether the command line gave the table option `name` ("topology.queue-disc"). */
bool
Gives(const CellOptions& options, const std::string& name)
{
    const std::string prefix
        = std::string("--") + ddnn_scenario_param_named(name.c_str())->flag + "=";
    return std::any_of(options.given.begin(), options.given.end(), [&prefix](const std::string& a) {
        return a.compare(0, prefix.size(), prefix) == 0;
    });
}

/**
 * The cell's scenario: the calibration's (the thesis code's default with the cell's load and
 * the profile), on the cell's topology, with `options`.
 */
Scenario
CellScenario(const Cell& cell,
             const std::string& profile,
             const std::string& priority,
             uint32_t workers,
             double durationS,
             const CellOptions& options)
{
    Scenario s = CalibrationScenario(profile, CellWorkers(cell, workers), cell.rcp, cell.flowRate);
    ddnn_scenario& x = s.values;
    if (IsFabric(cell))
    {
        s.Set("topology.kind", "leaf-spine");
        x.leaves = cell.leaves;
        x.servers_per_leaf = cell.serversPerLeaf;
        x.spines = cell.spines;
        s.Set("training.placement", "packed");
    }
    std::vector<const char*> argv{"ddnn-bench"};
    for (const std::string& arg : options.given)
    {
        argv.push_back(arg.c_str());
    }
    const ddnn_param* bad = nullptr;
    ddnn_diag diag{};
    if (ddnn_scenario_apply_args(
            &x, static_cast<int>(argv.size()), argv.data(), nullptr, nullptr, &bad, &diag)
        != DDNN_OK)
    {
        throw DdnnError("--" + std::string(bad->flag) + ": " + diag.message);
    }
    x.duration_s = durationS;
    x.warmup_s = 0;
    x.cooldown_s = 0;
    s.progress = "never";
    s.Set("priority.training", priority);
    return s;
}

/** Simulated seconds of the first iteration's compute (no gradient leaves before). */
double
FirstComputeS(const Scenario& s)
{
    return LoadJobModel(s, 0)->GetComputeTime().GetSeconds();
}

/** One training send as ddnn's workers made it: when, which worker, how many bytes. */
struct RingSend
{
    int64_t ns;
    uint32_t worker;
    uint64_t bytes;
};

std::vector<RingSend> g_sends; //!< the module child's, recorded by RecordSend

void
RecordSend(uint32_t worker, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t bytes)
{
    g_sends.push_back({Simulator::Now().GetNanoSeconds(), worker, bytes});
}

/**
 * Bare ns-3's replay of a ddnn worker's ring sends: the same bytes handed to one TCP
 * connection to the right neighbour at the same simulated instants as ddnn's worker handed
 * them to its transport, written in the profile's send size as ddnn's TcpStreamSender
 * writes them (at most that many bytes at a time, as far as the socket takes them).
 *
 * Why a replay: the cost of a byte in ns-3's TCP depends on when it is sent. A ring that
 * pushes a run's bytes as fast as TCP takes them (BulkSend, or the paced sender) moves them
 * in one long burst against the background's flows, where ddnn's iterations send them in
 * short bursts between compute phases: under the thesis profile (NewReno, 32 MiB buffers,
 * SACK scoreboards of thousands of segments) the burst cost bare ns-3 twice the CPU time of
 * the whole ddnn run at the lightest cell, which is not ddnn's speed. With the replay, both
 * runs hand ns-3 the same writes at the same times; what differs is ddnn's own work.
 *
 * --bare=paced keeps the earlier ring for comparison: every byte added at once, at most
 * `maxQueued` bytes in the socket at a time. The cap is one ring partition, which is what a
 * ddnn worker has queued at most (a ring step waits for the previous one's bytes); without it
 * the thesis profile's 32 MiB send buffer would hold hundreds of writes in ns-3's TcpTxBuffer,
 * work ddnn never does.
 */
class ReplaySender : public SimpleRefCount<ReplaySender>
{
  public:
    /**
     * Connects at `start` (as a ddnn tenant, with IP ToS `tos`), then sends what is added; with
     * `closeWhenWritten`, closes once every byte is in the socket (a background flow, as
     * ddnn's BackgroundFlowSender does).
     */
    ReplaySender(Ptr<Node> node,
                 InetSocketAddress peer,
                 uint8_t tos,
                 uint32_t chunk,
                 Time start,
                 bool closeWhenWritten,
                 uint64_t maxQueued = std::numeric_limits<uint64_t>::max())
        : m_node(node)
        , m_peer(peer)
        , m_tos(tos)
        , m_chunk(chunk)
        , m_closeWhenWritten(closeWhenWritten)
        , m_maxQueued(maxQueued)
    {
        Simulator::ScheduleWithContext(node->GetId(), start, &ReplaySender::Start, this);
    }

    void
    Add(uint64_t bytes)
    {
        m_pending += bytes;
        Pump();
    }

  private:
    void
    Start()
    {
        m_socket = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
        UintegerValue buffer;
        m_socket->GetAttribute("SndBufSize", buffer);
        m_buffer = buffer.Get();
        compat::SetTos(m_socket, m_peer, m_tos);
        m_socket->Bind();
        m_socket->SetConnectCallback(MakeCallback(&ReplaySender::Connected, this),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeCallback(&ReplaySender::Space, this));
        m_socket->ShutdownRecv();
        m_socket->Connect(m_peer);
    }

    void
    Connected(Ptr<Socket>)
    {
        m_connected = true;
        Pump();
    }

    void
    Space(Ptr<Socket>, uint32_t)
    {
        Pump();
    }

    void
    Pump()
    {
        while (m_connected && m_pending > 0)
        {
            const uint64_t available = m_socket->GetTxAvailable();
            const uint64_t queued = m_buffer - available;
            if (queued >= m_maxQueued)
            {
                return;
            }
            const uint64_t write
                = std::min<uint64_t>({m_pending, available, m_maxQueued - queued, m_chunk});
            if (write == 0 || m_socket->Send(Create<Packet>(static_cast<uint32_t>(write))) <= 0)
            {
                return;
            }
            m_pending -= write;
            if (m_pending == 0 && m_closeWhenWritten)
            {
                m_socket->Close();
                m_connected = false;
            }
        }
    }

    Ptr<Node> m_node;
    Ptr<Socket> m_socket;
    InetSocketAddress m_peer;
    uint8_t m_tos;
    uint64_t m_chunk;
    uint64_t m_pending{0};
    bool m_closeWhenWritten;
    uint64_t m_maxQueued;
    uint64_t m_buffer{0}; //!< the socket's send buffer
    bool m_connected{false};
};

/** Bare ns-3's receiver: listens on `port`, ACKing with IP ToS `tos` as ddnn's do; discards. */
class BareSink : public SimpleRefCount<BareSink>
{
  public:
    BareSink(Ptr<Node> node, uint16_t port, uint8_t tos)
    {
        InetSocketAddress local(Ipv4Address::GetAny(), port);
        m_listener = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        compat::SetTos(m_listener, local, tos);
        m_listener->Bind(local);
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&BareSink::Accepted, this));
    }

  private:
    void
    Accepted(Ptr<Socket> socket, const Address&)
    {
        socket->SetRecvCallback(MakeCallback(&BareSink::Read, this));
        socket->SetCloseCallbacks(MakeCallback(&BareSink::Closed, this),
                                  MakeCallback(&BareSink::Closed, this));
        m_accepted.push_back(socket);
    }

    void
    Read(Ptr<Socket> socket)
    {
        while (Ptr<Packet> packet = socket->Recv())
        {
            if (packet->GetSize() == 0)
            {
                break;
            }
        }
    }

    void
    Closed(Ptr<Socket> socket)
    {
        socket->Close(); // as ddnn's sinks: our FIN after the peer's
    }

    Ptr<Socket> m_listener;
    std::vector<Ptr<Socket>> m_accepted;
};

/**
 * Bare ns-3 on the same network: the server of worker r replays worker r's ring sends to that
 * of worker r+1 (ReplaySender; with no sends given, ringBytes[r+1] at once, at most a
 * partition queued, --bare=paced), and every background flow is one connection from its start
 * time writing its bytes in the profile's send size, as ddnn's background sender does; each
 * tenant with ddnn's IP ToS on its data and its ACKs.
 */
void
RunBare(const Scenario& scenario,
        const std::vector<uint64_t>& ringBytes,
        const std::vector<RingSend>& sends,
        const std::vector<ddnn_flow>& flows)
{
    const ddnn_scenario& s = scenario.values;
    Ptr<ServerTopology> network = CreateTopology(scenario); // applies the TCP settings
    Ptr<ServerTopology> job = PlaceJob(network, s.jobs[0].placement, s.workers); // as ddnn's
    const TransportSettings transport = scenario.Transport();
    const uint32_t sendSize = transport.sendChunkBytes;
    const uint64_t partition = (s.jobs[0].fusion_bytes + s.workers - 1) / s.workers;
    // The tenants' ToS under the cell's priority, on data and ACKs, as ddnn sets them: the
    // bands, and ns-3's work per packet (a socket with a ToS tags every packet it sends).
    const uint8_t trainingTos = scenario.JobTos(0);
    const uint8_t backgroundTos = scenario.BackgroundTos();
    const uint8_t backgroundAckTos = transport.backgroundAcksInDataBand ? backgroundTos : 0;
    std::vector<Ptr<BareSink>> sinks;
    for (uint32_t i = 0; i < network->GetServerCount(); ++i)
    {
        sinks.push_back(Create<BareSink>(network->GetServer(i), 50000, trainingTos));
        sinks.push_back(Create<BareSink>(network->GetServer(i), 60000, backgroundAckTos));
    }
    std::vector<Ptr<ReplaySender>> replay;
    for (uint32_t r = 0; r < s.workers && !sends.empty(); ++r)
    {
        replay.push_back(Create<ReplaySender>(
            job->GetServer(r),
            InetSocketAddress(job->GetServerAddress((r + 1) % s.workers), 50000),
            trainingTos,
            sendSize,
            Seconds(0),
            false));
    }
    for (const RingSend& send : sends)
    {
        if (send.worker < replay.size())
        {
            Simulator::ScheduleWithContext(job->GetServer(send.worker)->GetId(),
                                           NanoSeconds(send.ns),
                                           &ReplaySender::Add,
                                           replay[send.worker],
                                           send.bytes);
        }
    }
    for (uint32_t r = 0; r < s.workers && sends.empty(); ++r)
    {
        uint32_t right = (r + 1) % s.workers;
        if (ringBytes[right] == 0)
        {
            continue;
        }
        replay.push_back(
            Create<ReplaySender>(job->GetServer(r),
                                 InetSocketAddress(job->GetServerAddress(right), 50000),
                                 trainingTos,
                                 sendSize,
                                 Seconds(0),
                                 false,
                                 partition));
        replay.back()->Add(ringBytes[right]);
    }
    std::vector<Ptr<ReplaySender>> background;
    for (const ddnn_flow& f : flows)
    {
        background.push_back(
            Create<ReplaySender>(network->GetServer(f.src),
                                 InetSocketAddress(network->GetServerAddress(f.dst), 60000),
                                 backgroundTos,
                                 sendSize,
                                 NanoSeconds(f.start_ns),
                                 true));
        Simulator::ScheduleWithContext(network->GetServer(f.src)->GetId(),
                                       NanoSeconds(f.start_ns),
                                       &ReplaySender::Add,
                                       background.back(),
                                       f.bytes);
    }
    Simulator::Stop(Seconds(s.duration_s));
    Simulator::Run();
    Simulator::Destroy();
}

/**
 * The child: --child=KIND:CELL:PROFILE:PRIORITY:WORKERS:WARMUP:MEASURE:SENDS[:RING], KIND
 * module or bare. The module run writes its ring sends to the file SENDS; the bare run replays
 * them, or with RING (the bytes each worker received, '/'-separated) sends those paced.
 * Prints one "sample" line.
 */
int
RunChild(const std::string& spec, const CellOptions& options)
{
    std::vector<std::string> f;
    std::stringstream in(spec);
    for (std::string field; std::getline(in, field, ':');)
    {
        f.push_back(field);
    }
    if (f.size() < 8)
    {
        throw DdnnError("--child: malformed '" + spec + "'");
    }
    Cell cell;
    if (!FindCell(f[1], cell))
    {
        throw DdnnError("--child: unknown cell '" + f[1] + "'");
    }
    const double warm = std::stod(f[5]);
    const double measure = std::stod(f[6]);
    Scenario s = CellScenario(cell, f[2], f[3], std::stoul(f[4]), warm + measure, options);
    std::vector<ddnn_flow> flows = MakeBackgroundFlows(s);
    Probes probes;
    probes.Schedule(warm, warm + measure);
    std::ostringstream ring;
    auto start = std::chrono::steady_clock::now();
    if (f[0] == "module")
    {
        // At 0 s, before the applications start: the workers exist by then.
        Simulator::Schedule(Seconds(0), [] {
            Config::ConnectWithoutContext(
                "/NodeList/*/ApplicationList/*/$ns3::TrainingWorker/PartitionSent",
                MakeCallback(&RecordSend));
        });
        DatacenterResult result = RunDatacenter(s, flows, "");
        for (size_t i = 0; i < result.jobs[0].trainingBytesReceived.size(); ++i)
        {
            ring << (i ? "/" : "") << result.jobs[0].trainingBytesReceived[i];
        }
        std::ofstream out(f[7]);
        for (const RingSend& send : g_sends)
        {
            out << send.ns << " " << send.worker << " " << send.bytes << "\n";
        }
        if (!out.flush())
        {
            throw DdnnError("--child: cannot write " + f[7]);
        }
    }
    else
    {
        std::vector<uint64_t> bytes;
        std::vector<RingSend> sends;
        if (f.size() > 8)
        {
            std::stringstream list(f[8]);
            for (std::string b; std::getline(list, b, '/');)
            {
                bytes.push_back(std::stoull(b));
            }
        }
        else
        {
            std::ifstream in(f[7]);
            for (RingSend send; in >> send.ns >> send.worker >> send.bytes;)
            {
                sends.push_back(send);
            }
            if (!in.eof())
            {
                throw DdnnError("--child: cannot read the ring sends in " + f[7]);
            }
        }
        bytes.resize(s.values.workers, 0);
        RunBare(s, bytes, sends, flows);
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << std::setprecision(9) << "sample " << wall << " "
              << std::chrono::duration<double>(probes.wall[1] - probes.wall[0]).count() << " "
              << probes.cpu[1] - probes.cpu[0] << " " << probes.events[1] - probes.events[0] << " "
              << (ring.str().empty() ? "-" : ring.str()) << std::endl;
    return 0;
}

/**
 * Runs this program as a child with --child=spec and `options`; its sample, peak RSS from
 * wait4.
 */
Sample
Measure(const std::string& spec, const CellOptions& options)
{
    int pipeFd[2];
    if (pipe(pipeFd) != 0)
    {
        throw DdnnError(std::string("pipe: ") + std::strerror(errno));
    }
    const std::string arg = "--child=" + spec;
    std::vector<char*> argv{const_cast<char*>("ddnn-bench"), const_cast<char*>(arg.c_str())};
    for (const std::string& given : options.given)
    {
        argv.push_back(const_cast<char*>(given.c_str()));
    }
    argv.push_back(nullptr);
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
        execv("/proc/self/exe", argv.data());
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
    sample.cpuS = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec
                  + usage.ru_stime.tv_usec * 1e-6;
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

/**
 * The bench's own folder for its temporary files (the recorded ring sends the bare run
 * replays): made with mkdtemp under TMPDIR (else /tmp), removed on every exit of the bench:
 * a normal end, an error (exit), and SIGINT, SIGTERM, SIGHUP or SIGPIPE (the handler removes it
 * with async-signal-safe calls, then dies of the signal as it would have).
 */
class TemporaryFolder
{
  public:
    /** Makes the folder; throws DdnnError when it cannot. */
    static void
    Make()
    {
        const char* base = std::getenv("TMPDIR");
        const std::string pattern
            = std::string(base && base[0] == '/' ? base : "/tmp") + "/ddnn-bench-XXXXXX";
        if (pattern.size() + sizeof "/sends" >= sizeof s_folder)
        {
            throw DdnnError("TMPDIR=" + std::string(base)
                            + ": a path too long for the bench's "
                              "temporary folder");
        }
        std::snprintf(s_folder, sizeof s_folder, "%s", pattern.c_str());
        if (!mkdtemp(s_folder))
        {
            throw DdnnError("cannot make the bench's temporary folder " + pattern + ": "
                            + std::strerror(errno));
        }
        std::snprintf(s_sends, sizeof s_sends, "%s/sends", s_folder);
        std::atexit(&Remove);
        // SIGPIPE: a reader that quit early (ddnn-bench | head -1).
        for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
        {
            std::signal(signal, &OnSignal);
        }
    }

    /** The file of recorded sends inside it. */
    static const char*
    Sends()
    {
        return s_sends;
    }

  private:
    static void
    Remove()
    {
        unlink(s_sends);
        rmdir(s_folder);
    }

    static void
    OnSignal(int signal)
    {
        Remove();
        std::signal(signal, SIG_DFL);
        raise(signal);
    }

    static char s_folder[4096];
    static char s_sends[4096 + 8];
};

char TemporaryFolder::s_folder[4096];
char TemporaryFolder::s_sends[4096 + 8];

} // namespace

int
main(int argc, char* argv[])
{
    std::string child;
    std::string cellsText = "lightest,heaviest,thesis-default";
    std::string profilesText = "tuned,thesis";
    std::string warmupText = "auto";
    std::string measureText = "auto";
    std::string repeatText = "3";
    bool quick = false;
    bool baseline = true;
    std::string bare = "replay";
    std::string calibrationOut;
    CellOptions options;
    options.values = Scenario().values;
    options.values.workers = 8;
    std::snprintf(options.values.training_priority,
                  sizeof options.values.training_priority,
                  "same"); // the cells' and the calibration's
    CommandLine cmd = ProgramCommandLine(__FILE__);
    AddOption(cmd,
              "cells",
              "comma-separated: lightest, heaviest, thesis-default (the default), "
              "rcp2-flows23, rcp16-flows184 (the grid's other corners), leaf-spine-32, "
              "leaf-spine-64, leaf-spine-128 (every server a worker; --workers ignored)",
              cellsText);
    AddOption(
        cmd,
        "profiles",
        "comma-separated transport profiles (tuned, thesis), each with its own host band limit "
        "unless --hostBandPackets is given",
        profilesText);
    ScenarioArguments table(cmd, kTableOptions, &options.values);
    AddOption(cmd,
              "warmupS",
              "simulated seconds before the measured span; auto: the first iteration's "
              "compute time",
              warmupText);
    AddOption(cmd,
              "measureS",
              "simulated seconds measured after the warm-up; auto: whole iterations, at "
              "least 0.5 s (thesis-default: up to 2 s)",
              measureText);
    AddOption(cmd, "repeat", "module and bare runs of each cell, interleaved", repeatText);
    AddOption(cmd, "quick", "smoke use: 10 ms of warm-up, 20 ms measured, one run each", quick);
    AddOption(cmd, "baseline", "run bare ns-3 after each ddnn run (false: no ratio)", baseline);
    AddOption(cmd,
              "bare",
              "bare ns-3's ring: replay (ddnn's sends at their times) or paced (the bytes as "
              "fast as TCP takes them, one partition queued)",
              bare);
    AddOption(cmd,
              "calibrationOut",
              "write the calibration table (CPU s per simulated s) here",
              calibrationOut);
    AddOption(cmd, "child", "internal: one measured run", child);
    std::vector<char*> rest = table.TakeEmpty(argc, argv);
    ParseCommandLine(cmd, static_cast<int>(rest.size()), rest.data(), "ddnn-bench");

    try
    {
        table.Apply(argc, argv, options.values);
        for (const std::string name :
             {"transport.host-band-packets", "training.priority-policy", "topology.queue-disc"})
        {
            const ddnn_param* p = ddnn_scenario_param_named(name.c_str());
            char text[DDNN_PATH_MAX + 32];
            if (CommandLineGives(argc, argv, p->flag)
                && ddnn_scenario_format_param(&options.values, p, text, sizeof text) == DDNN_OK)
            {
                options.given.push_back("--" + std::string(p->flag) + "=" + text);
            }
        }
        if (!child.empty())
        {
            return RunChild(child, options);
        }
        const uint32_t workers = options.values.workers;
        const std::string priority = options.values.training_priority;
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
            Cell cell;
            if (!FindCell(name, cell))
            {
                std::string more;
                for (size_t i = 3; i < kCells.size(); ++i)
                {
                    more += kCells[i].name + ", ";
                }
                throw DdnnError("--cells: expected lightest, heaviest or thesis-default, got '"
                                + name + "' (also: " + more + "or rcpR-flowsF)");
            }
            cells.push_back(cell);
        }
        if (bare != "replay" && bare != "paced")
        {
            throw DdnnError("--bare: expected replay or paced, got '" + bare + "'");
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

        if (!calibrationOut.empty())
        {
            // Its folder is checked before the runs, not after them.
            const std::filesystem::path folder
                = std::filesystem::absolute(calibrationOut).parent_path();
            std::error_code ec;
            if (!std::filesystem::is_directory(folder, ec) || access(folder.c_str(), W_OK) != 0)
            {
                throw DdnnError("--calibrationOut=" + calibrationOut + ": cannot write into "
                                + folder.string() + " (no such folder, or not writable)");
            }
        }
        // Every cell's scenario is checked before the table starts: a refusal is one line.
        for (const std::string& profile : profiles)
        {
            for (const Cell& cell : cells)
            {
                CellScenario(cell, profile, priority, workers, 1, options).Validate();
            }
        }
        std::cout << "ddnn-bench: " << workers << " workers (a leaf-spine cell: its servers), "
                  << "training priority " << priority << ", " << repeat
                  << " x (ddnn, bare ns-3) interleaved per cell, servers' band limit "
                  << (Gives(options, "transport.host-band-packets")
                          ? std::to_string(options.values.host_band_packets) + " packets"
                          : std::string("the profile's"))
                  << ", priority policy " << options.values.jobs[0].priority_policy
                  << ", queue disc " << options.values.queue_disc << "; median (min-max)\n"
                  << std::left << std::setw(15) << "cell" << std::setw(8) << "profile"
                  << std::setw(12) << "warm+meas" << std::setw(22) << "wall s/sim s"
                  << std::setw(12) << "CPU s/sim s" << std::setw(11) << "Mevents/s" << std::setw(8)
                  << "RSS MB" << std::setw(9) << "run s" << std::setw(11) << "run CPU s"
                  << std::setw(18) << "ddnn/bare wall"
                  << "ddnn/bare CPU\n";
        TemporaryFolder::Make();
        std::vector<CalibrationPoint> calibration;
        for (const std::string& profile : profiles)
        {
            for (const Cell& cell : cells)
            {
                Scenario s = CellScenario(cell, profile, priority, workers, 1, options);
                const uint32_t cellWorkers = s.values.workers;
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
                spec << std::setprecision(9) << cell.name << ":" << profile << ":" << priority
                     << ":" << cellWorkers << ":" << warm << ":" << measure;
                std::vector<double> wallPerSim;
                std::vector<double> cpuPerSim;
                std::vector<double> eventsPerS;
                std::vector<double> rss;
                std::vector<double> runS;
                std::vector<double> runCpuS;
                std::vector<double> ratio;
                std::vector<double> cpuRatio;
                spec << ":" << TemporaryFolder::Sends();
                for (uint32_t i = 0; i < repeat; ++i)
                {
                    Sample a = Measure("module:" + spec.str(), options);
                    if (baseline)
                    {
                        Sample b = Measure("bare:" + spec.str()
                                               + (bare == "paced" ? ":" + a.ringBytes : ""),
                                           options);
                        ratio.push_back(a.wallS / std::max(b.wallS, 1e-9));
                        cpuRatio.push_back(a.cpuS / std::max(b.cpuS, 1e-9));
                    }
                    wallPerSim.push_back(a.windowWallS / measure);
                    cpuPerSim.push_back(a.windowCpuS / measure);
                    eventsPerS.push_back(a.windowEvents / std::max(a.windowWallS, 1e-9) / 1e6);
                    rss.push_back(a.peakRssMb);
                    runS.push_back(a.wallS);
                    runCpuS.push_back(a.cpuS);
                }
                unlink(TemporaryFolder::Sends());
                std::ostringstream window;
                window << std::fixed << std::setprecision(2) << warm << "+" << measure;
                std::ostringstream medians;
                medians << std::fixed << std::setprecision(1) << std::left << std::setw(12)
                        << Median(cpuPerSim) << std::setprecision(3) << std::setw(11)
                        << Median(eventsPerS) << std::setprecision(0) << std::setw(8) << Median(rss)
                        << std::setprecision(1) << std::setw(9) << Median(runS) << std::setw(11)
                        << Median(runCpuS);
                std::cout << std::left << std::setw(15) << cell.name << std::setw(8) << profile
                          << std::setw(12) << window.str() << std::setw(22) << Spread(wallPerSim, 1)
                          << medians.str() << std::setw(18)
                          << (ratio.empty() ? "-" : Spread(ratio, 2))
                          << (cpuRatio.empty() ? "-" : Spread(cpuRatio, 2)) << std::endl;
                // A tiny --quick span may read 0 s of CPU; the table takes positive costs.
                // The table's model is one rack: a fabric's cells are left out of it.
                if (!IsFabric(cell))
                {
                    calibration.push_back({profile,
                                           workers,
                                           cell.rcp,
                                           cell.flowRate,
                                           std::max(Median(cpuPerSim), 1e-4)});
                }
            }
        }
        std::cout << "(wall and CPU per simulated second, and events per wall second, over the "
                     "measured span only; RSS, run s and run CPU s: the whole ddnn run; ratios: "
                     "whole runs, of wall "
                     "time and of the child's CPU time, which a machine shared with other work "
                     "disturbs less)\n";
        if (!calibrationOut.empty())
        {
            std::ostringstream comment;
            comment << "CPU seconds per simulated second, steady state, written by ddnn-bench\n"
                    << "(" << repeat << " runs per cell, median; 10 Gbit/s, training at the "
                    << priority << " priority). Read by ddnn-campaign --estimate.";
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
