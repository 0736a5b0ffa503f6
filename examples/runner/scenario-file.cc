/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-file.h"

#include "input-file.h"
#include "ns3/atomic-file.h"
#include "program-main.h"

#include "ns3/data-path.h"
#include "ns3/ddnn-scenario-params.h"
#include "ns3/ddnn-scenario.h"
#include "ns3/one-line-error.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

namespace ns3
{

namespace
{

/** Absolute path: as is; relative: next to the scenario file, else in the data folder. */
std::string
Resolve(const std::string& path, const std::string& scenarioPath)
{
    if (path.empty() || path[0] == '/')
    {
        return path;
    }
    if (scenarioPath.empty())
    {
        return DdnnDataPath(path);
    }
    size_t slash = scenarioPath.rfind('/');
    std::string besideFile
        = (slash == std::string::npos ? std::string(".") : scenarioPath.substr(0, slash)) + "/"
          + path;
    if (PathExists(besideFile))
    {
        return besideFile;
    }
    return DdnnDataPath(path);
}

void
Copy(char* dst, size_t size, const std::string& text, const char* what)
{
    if (text.size() >= size)
    {
        throw DdnnError(std::string("scenario value too long: ") + what);
    }
    std::snprintf(dst, size, "%s", text.c_str());
}

/** An existing relative path made absolute, so a written-back scenario works from anywhere. */
std::string
Absolute(const std::string& path)
{
    if (path.empty() || path[0] == '/')
    {
        return path;
    }
    char* resolved = realpath(path.c_str(), nullptr);
    if (!resolved)
    {
        return path;
    }
    std::string absolute = resolved;
    std::free(resolved);
    return absolute;
}

} // namespace

std::string
LoadScenarioFile(const std::string& given, ddnn_scenario& x)
{
    // A name that is not a file here may be one of ddnn's, e.g. scenarios/thesis-defaults.xml.
    std::string path = given;
    if (!PathExists(path) && PathExists(DdnnDataPath(path)))
    {
        path = DdnnDataPath(path);
    }
    ddnn_diag diag{};
    std::string schema = DdnnDataPath("ddnn-scenario.xsd");
    if (ddnn_scenario_read_file(&x, path.c_str(), schema.c_str(), &diag) != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    return path;
}

void
ApplyCoreScenario(const ddnn_scenario& x, const std::string& path, TrainingScenario& s)
{
    s.workers = x.workers;
    s.dataRate = x.data_rate;
    s.delayUs = x.delay_us;
    s.lossRate = x.loss_rate;
    s.addedDelayUs = x.added_delay_us;
    s.rateCap = x.rate_cap;
    s.impairedServers = x.impaired_servers;
    s.topologyKind = x.topology_kind;
    s.leaves = x.leaves;
    s.serversPerLeaf = x.servers_per_leaf;
    s.spines = x.spines;
    s.fatTreeK = x.fat_tree_k;
    s.fabricDataRate = x.fabric_data_rate;
    s.queueDisc = x.queue_disc;
    s.ecnThresholdPackets = x.ecn_threshold_packets;
    s.moreJobs.clear();
    for (uint32_t k = 0; k < x.job_count; ++k)
    {
        TrainingJobParameters& job = k == 0 ? s : s.moreJobs.emplace_back();
        const ddnn_scenario_job& j = x.jobs[k];
        job.jobWorkers = j.workers;
        job.profile = Resolve(j.profile, path);
        job.fusionBytes = j.fusion_bytes;
        job.computeMs = j.compute_ms;
        job.rcp = j.rcp;
        job.queue = j.queue;
        job.barrier = j.barrier != 0;
        job.transport = j.transport;
        job.collective = j.collective;
        job.parameterServers = j.parameter_servers;
        job.parameterServerHosts = j.parameter_server_hosts;
        job.highPriorityBuffers = j.high_priority_buffers;
        job.stragglers = j.stragglers;
        job.stragglerScale = j.straggler_scale;
        job.jitter = j.jitter;
        job.placement = j.placement;
        job.startS = j.start_s;
        job.iterations = j.iterations;
        job.stallTimeoutMs = j.stall_timeout_ms;
        job.tos = j.tos;
        job.band = j.band;
        job.stopS = j.stop_s;
    }
    s.transportSettings = TransportSettings(x);
    s.seed = x.seed;
    s.rngRun = x.rng_run;
    s.ns3Defaults.clear();
    for (uint32_t i = 0; i < x.ns3_default_count; ++i)
    {
        s.ns3Defaults.emplace_back(x.ns3_defaults[i].name, x.ns3_defaults[i].value);
    }
}

void
ApplyCoreScenario(const ddnn_scenario& x, const std::string& path, DatacenterScenario& s)
{
    ApplyCoreScenario(x, path, static_cast<TrainingScenario&>(s));
    s.flowRate = x.flow_rate;
    s.cdf = Resolve(x.cdf, path);
    s.schedule = Resolve(x.schedule, path);
    s.trainingPriority = x.training_priority;
    s.durationS = x.duration_s;
    s.warmupS = x.warmup_s;
    s.cooldownS = x.cooldown_s;
    s.minIterations = x.min_iterations;
    s.minFlows = x.min_flows;
    s.utilIntervalMs = x.util_interval_ms;
}

ddnn_scenario
ToCoreScenario(const TrainingScenario& s)
{
    ddnn_scenario x;
    ddnn_scenario_defaults(&x);
    x.workers = s.workers;
    Copy(x.data_rate, sizeof x.data_rate, s.dataRate, "--dataRate");
    x.delay_us = s.delayUs;
    x.loss_rate = s.lossRate;
    x.added_delay_us = s.addedDelayUs;
    Copy(x.rate_cap, sizeof x.rate_cap, s.rateCap, "--rateCap");
    Copy(x.impaired_servers, sizeof x.impaired_servers, s.impairedServers, "--impairedServers");
    Copy(x.topology_kind, sizeof x.topology_kind, s.topologyKind, "--topology");
    x.leaves = s.leaves;
    x.servers_per_leaf = s.serversPerLeaf;
    x.spines = s.spines;
    x.fat_tree_k = s.fatTreeK;
    Copy(x.fabric_data_rate, sizeof x.fabric_data_rate, s.fabricDataRate, "--fabricDataRate");
    Copy(x.queue_disc, sizeof x.queue_disc, s.queueDisc, "--queueDisc");
    x.ecn_threshold_packets = s.ecnThresholdPackets;
    const std::vector<TrainingJobParameters> jobs = s.Jobs();
    if (jobs.size() > DDNN_SCENARIO_MAX_JOBS)
    {
        throw DdnnError("at most " + std::to_string(DDNN_SCENARIO_MAX_JOBS) + " training jobs, got "
                        + std::to_string(jobs.size()));
    }
    x.job_count = static_cast<uint32_t>(jobs.size());
    for (uint32_t k = 0; k < x.job_count; ++k)
    {
        const TrainingJobParameters& job = jobs[k];
        ddnn_scenario_job& j = x.jobs[k];
        j.workers = job.jobWorkers;
        Copy(j.profile, sizeof j.profile, Absolute(job.profile), "--profile");
        j.fusion_bytes = job.fusionBytes;
        j.compute_ms = job.computeMs;
        j.rcp = job.rcp;
        Copy(j.queue, sizeof j.queue, job.queue, "--queue");
        j.barrier = job.barrier ? 1 : 0;
        Copy(j.transport, sizeof j.transport, job.transport, "--transport");
        Copy(j.collective, sizeof j.collective, job.collective, "--collective");
        j.parameter_servers = job.parameterServers;
        Copy(j.parameter_server_hosts,
             sizeof j.parameter_server_hosts,
             job.parameterServerHosts,
             "--parameterServerHosts");
        j.high_priority_buffers = job.highPriorityBuffers;
        Copy(j.stragglers, sizeof j.stragglers, job.stragglers, "--stragglers");
        j.straggler_scale = job.stragglerScale;
        Copy(j.jitter, sizeof j.jitter, job.jitter, "--jitter");
        Copy(j.placement, sizeof j.placement, job.placement, "--placement");
        j.start_s = job.startS;
        j.iterations = job.iterations;
        j.stall_timeout_ms = job.stallTimeoutMs;
        j.tos = job.tos;
        Copy(j.band, sizeof j.band, job.band, "--band");
        j.stop_s = job.stopS;
    }
    s.transportSettings.ToCore(x);
    x.seed = s.seed;
    x.rng_run = s.rngRun;
    for (const auto& [name, value] : s.ns3Defaults)
    {
        ddnn_diag diag{};
        if (ddnn_scenario_set_ns3_default(&x, name.c_str(), value.c_str(), &diag) != DDNN_OK)
        {
            throw DdnnError("--" + name + ": " + diag.message);
        }
    }
    return x;
}

ddnn_scenario
ToCoreScenario(const DatacenterScenario& s)
{
    ddnn_scenario x = ToCoreScenario(static_cast<const TrainingScenario&>(s));
    x.flow_rate = s.flowRate;
    Copy(x.cdf, sizeof x.cdf, Absolute(s.cdf), "--cdf");
    Copy(x.schedule, sizeof x.schedule, Absolute(s.schedule), "--schedule");
    Copy(x.training_priority, sizeof x.training_priority, s.trainingPriority, "--trainingPriority");
    x.duration_s = s.durationS;
    x.warmup_s = s.warmupS;
    x.cooldown_s = s.cooldownS;
    x.min_iterations = s.minIterations;
    x.min_flows = s.minFlows;
    x.util_interval_ms = s.utilIntervalMs;
    return x;
}

void
CheckRanges(const ddnn_scenario& x)
{
    const ddnn_param* bad = nullptr;
    ddnn_diag diag{};
    if (ddnn_scenario_check(&x, &bad, &diag) != DDNN_OK)
    {
        throw DdnnError("--" + std::string(bad ? bad->flag : "?") + ": " + diag.message);
    }
}

void
WriteScenarioFile(const DatacenterScenario& s, const std::string& path)
{
    ddnn_scenario x = ToCoreScenario(s);
    CheckRanges(x); // every value one a scenario file can hold (no control characters)
    char* text = nullptr;
    size_t len = 0;
    if (ddnn_scenario_write(&x, &text, &len) != DDNN_OK)
    {
        throw DdnnError(path + ": cannot format the scenario");
    }
    std::unique_ptr<char, decltype(&std::free)> owned(text, &std::free);
    AtomicFile file(path);
    file.Out().write(text, static_cast<std::streamsize>(len));
    file.Commit();
}

ScenarioArguments::ScenarioArguments(CommandLine& cmd, const std::vector<std::string>& accepted)
{
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string name = std::string(p->element) + "." + p->attribute;
        if (std::find(accepted.begin(), accepted.end(), p->element) == accepted.end()
            && std::find(accepted.begin(), accepted.end(), name) == accepted.end())
        {
            continue;
        }
        char expected[160];
        ddnn_param_describe(p, expected, sizeof expected);
        std::string& text = m_text[p->flag];
        text = p->default_value;
        AddOption(cmd,
                  p->flag,
                  std::string(p->help) + "; " + expected + "; scenario file: <" + p->element + " "
                      + p->attribute + ">",
                  text);
    }
}

std::vector<char*>
ScenarioArguments::TakeEmpty(int argc, char* argv[])
{
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string flag = arg.size() > 3 ? arg.substr(2, arg.size() - 3) : "";
        if (i > 0 && arg.compare(0, 2, "--") == 0 && arg.back() == '=' && m_text.count(flag))
        {
            continue; // Apply takes it from argv
        }
        rest.push_back(argv[i]);
    }
    return rest;
}

void
ScenarioArguments::Apply(int argc, char* argv[], ddnn_scenario& x) const
{
    // The core's reading of argv: the last value of each option, whole (blanks and empty
    // values included), the transport profile first.
    auto accept = [](const ddnn_param* p, void* self) -> int {
        return static_cast<const ScenarioArguments*>(self)->m_text.count(p->flag) != 0;
    };
    const ddnn_param* bad = nullptr;
    ddnn_diag diag{};
    if (ddnn_scenario_apply_args(
            &x, argc, argv, accept, const_cast<ScenarioArguments*>(this), &bad, &diag)
        != DDNN_OK)
    {
        throw DdnnError("--" + std::string(bad->flag) + ": " + diag.message);
    }
}

namespace
{

/** The value of --name=VALUE, if the arguments give it. */
bool
FindArgument(int argc, char* argv[], const std::string& name, std::string& value)
{
    const std::string prefix = "--" + name + "=";
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.compare(0, prefix.size(), prefix) == 0)
        {
            value = arg.substr(prefix.size());
            return true;
        }
    }
    return false;
}

} // namespace

bool
CommandLineGives(int argc, char* argv[], const std::string& name)
{
    std::string value;
    return FindArgument(argc, argv, name, value);
}

void
ParseArguments(const std::string& program,
               CommandLine& cmd,
               int argc,
               char* argv[],
               DatacenterScenario& scenario,
               const std::vector<std::string>& accepted)
{
    std::string file;
    AddOption(cmd, "scenario", "scenario XML file; the other arguments override it", file);
    ScenarioArguments arguments(cmd, accepted);
    // ns-3's parser takes no empty value ("--schedule="): those are set here, after it.
    std::vector<char*> rest = arguments.TakeEmpty(argc, argv);
    ParseCommandLine(cmd, static_cast<int>(rest.size()), rest.data(), program);
    // The program's values, then the file's, then the command line's.
    ddnn_scenario x = ToCoreScenario(scenario);
    x.rng_run = RngSeedManager::GetRun(); // ns-3's own default, or NS_GLOBAL_VALUE's
    std::string path;
    if (!file.empty())
    {
        path = LoadScenarioFile(file, x);
    }
    arguments.Apply(argc, argv, x);
    if (CommandLineGives(argc, argv, "rcp") && !CommandLineGives(argc, argv, "computeMs"))
    {
        x.jobs[0].compute_ms = 0; // --rcp given: it sets the compute time, not the file's
    }
    // ns-3 attribute defaults: the file's, then the command line's (ns-3's parser has set
    // those already), all recorded in the scenario and set again here, in that order.
    for (const auto& [name, value] : Ns3DefaultsOnCommandLine(argc, argv))
    {
        ddnn_diag diag{};
        if (ddnn_scenario_set_ns3_default(&x, name.c_str(), value.c_str(), &diag) != DDNN_OK)
        {
            throw DdnnError("--" + name + "=" + value + ": " + diag.message);
        }
    }
    ApplyCoreScenario(x, path, scenario);
    ApplyNs3Defaults(scenario.ns3Defaults, file.empty() ? "the command line" : file);
}

} // namespace ns3
