/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario.h"

#include "input-file.h"
#include "port-plan.h"
#include "progress-meter.h"
#include "random-variable-text.h"
#include "scaled-replica.h"
#include "training-run.h"

#include "ddnn-scenario-params.h"
#include "ns3/background-pattern.h"
#include "ns3/buffer-priority-policy.h"
#include "ns3/data-path.h"
#include "ns3/ddnn-profile.h"
#include "ns3/egress-queue.h"
#include "ns3/one-line-error.h"
#include "ns3/partition-transport.h"
#include "ns3/server-topology.h"
#include "ns3/tenant-priority.h"
#include "ns3/uinteger.h"

#include "ns3/ddnn-collective.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/** The largest network built: servers, links (server and switch-to-switch) and nodes (servers
 * and switches). */
constexpr uint64_t kMaxServers = 1024;
constexpr uint64_t kMaxFabricLinks = 4096;
constexpr uint64_t kMaxFabricNodes = 2048;

/**
 * Whether text is a data rate the whole stack takes: ns-3's DataRate parser aborts on a
 * blank ("10 Gbps") and converts a rate above 2^64 bit/s to an undefined value, and above
 * 1000 Gbit/s a packet's transmission time rounds to a nanosecond or less.
 */
bool
IsRate(const std::string& text)
{
    const double maxBps = 1e12;
    if (text.empty() || text.size() > 40)
    {
        return false;
    }
    for (unsigned char c : text)
    {
        if (std::isspace(c) || !std::isprint(c))
        {
            return false;
        }
    }
    // The number's digits, then the unit ns-3 knows: its value as the rate of "1UNIT".
    const size_t unitAt = text.find_first_not_of("0123456789.");
    DataRateValue unit;
    if (unitAt == 0 || unitAt == std::string::npos
        || !unit.DeserializeFromString("1" + text.substr(unitAt), MakeDataRateChecker()))
    {
        return false;
    }
    const double bps = std::strtod(text.substr(0, unitAt).c_str(), nullptr)
                       * static_cast<double>(unit.Get().GetBitRate());
    DataRateValue rate;
    return bps >= 1 && bps <= maxBps && rate.DeserializeFromString(text, MakeDataRateChecker())
           && rate.Get().GetBitRate() > 0;
}

/** `path` with "." and ".." folded and links followed, when it exists; else as is. */
std::string
Canonical(const std::string& path)
{
    char* resolved = realpath(path.c_str(), nullptr);
    const std::string canonical = resolved ? resolved : path;
    std::free(resolved);
    return canonical;
}

/**
 * Replaces a relative path field of the record with its absolute path: `folder`/path when
 * that exists, else ddnn's data file of that name; one found in neither is refused, unless
 * `folder` is "" (the program's defaults, resolved before any error can be reported).
 */
void
ResolveField(const std::string& option, char* field, size_t size, const std::string& folder)
{
    const std::string written = field;
    if (written.rfind("case:", 0) == 0)
    {
        throw DdnnError(option + "=" + written
                        + ": a case:NAME path names another run of a campaign; only "
                          "ddnn-campaign resolves it");
    }
    if (written.empty() || written[0] == '/')
    {
        return;
    }
    const std::string inFolder = folder.empty() ? "" : folder + "/" + written;
    std::string resolved;
    if (!inFolder.empty() && PathExists(inFolder))
    {
        resolved = Canonical(inFolder);
    }
    else if (PathExists(DdnnDataPath(written)))
    {
        resolved = Canonical(DdnnDataPath(written));
    }
    else if (folder.empty())
    {
        resolved = DdnnDataPath(written); // a default: its reader names what is missing
    }
    else
    {
        throw DdnnError(option + "=" + written + ": no such file: neither " + inFolder + " nor "
                        + DdnnDataPath(written) + " exists");
    }
    if (resolved.size() >= size)
    {
        throw DdnnError(option + ": the path '" + resolved + "' is longer than "
                        + std::to_string(size - 1) + " bytes");
    }
    std::snprintf(field, size, "%s", resolved.c_str());
}

/**
 * The table's choices of the parameters a registry holds are the registry's names: those the
 * table lists, in its order (so messages name the shipped ones first), then any other.
 */
void
UseRegisteredChoices()
{
    std::vector<std::string> collectives;
    for (size_t i = 0; i < ddnn_collective_registered(); ++i)
    {
        collectives.emplace_back(ddnn_collective_at(i)->name);
    }
    const std::pair<const char*, std::vector<std::string>> registries[]
        = {{"topology.kind", ServerTopology::Names()},
           {"topology.queue-disc", EgressQueue::Names()},
           {"training.transport", PartitionTransport::Names()},
           {"training.collective", collectives},
           {"background.pattern", BackgroundPattern::Names()},
           {"training.priority-policy", BufferPriorityPolicy::Names()}};
    for (const auto& [name, registered] : registries)
    {
        std::vector<std::string> ordered;
        std::stringstream listed(ddnn_scenario_param_named(name)->choices);
        std::string choice;
        while (std::getline(listed, choice, '|'))
        {
            if (std::find(registered.begin(), registered.end(), choice) != registered.end())
            {
                ordered.push_back(choice);
            }
        }
        std::string choices;
        for (const std::string& known : registered)
        {
            if (std::find(ordered.begin(), ordered.end(), known) == ordered.end())
            {
                ordered.push_back(known);
            }
        }
        for (const std::string& known : ordered)
        {
            choices += (choices.empty() ? "" : "|") + known;
        }
        if (ddnn_scenario_param_set_choices(name, choices.c_str()) != DDNN_OK)
        {
            throw DdnnError(
                std::string(name) + ": the registered names '" + choices
                + "' cannot be its choices (too many, one too long, or without its default)");
        }
    }
}

} // namespace

bool
Is(const char* value, const char* text)
{
    return std::strcmp(value, text) == 0;
}

std::string
JobArgument(size_t job, const std::string& flag)
{
    if (job == 0)
    {
        return "--" + flag;
    }
    return "<training> number " + std::to_string(job + 1) + ", attribute '"
           + ddnn_scenario_param_by_flag(flag.c_str())->attribute + "'";
}

Scenario::Scenario()
{
    UseRegisteredChoices();
    ddnn_scenario_defaults(&values);
    ResolvePaths("");
}

namespace
{

/**
 * A flow-size distribution by name (--cdf=web-search): data/NAME-cdf.csv, unless `folder` holds
 * a file of that name. A name ddnn does not ship is refused naming those it does.
 */
void
ResolveDistributionName(char* field, size_t size, const std::string& folder)
{
    const std::string name = field;
    if (name.empty()
        || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos
        || (!folder.empty() && PathExists(folder + "/" + name)))
    {
        return; // a file
    }
    const std::string file = name + "-cdf.csv";
    if (!PathExists(DdnnDataPath(file)))
    {
        std::set<std::string> names;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(DdnnDataPath(""), ec))
        {
            const std::string found = entry.path().filename().string();
            if (found.size() > 8 && found.compare(found.size() - 8, 8, "-cdf.csv") == 0)
            {
                names.insert(found.substr(0, found.size() - 8));
            }
        }
        std::string shipped;
        for (const std::string& one : names)
        {
            shipped += (shipped.empty() ? "" : ", ") + one;
        }
        throw DdnnError("--cdf=" + name + ": no flow-size distribution of that name (ddnn ships "
                        + (shipped.empty() ? std::string("none") : shipped)
                        + "); convert a published one with tools/import-cdf.sh and give its file");
    }
    std::snprintf(field, size, "%s", file.c_str());
}

} // namespace

void
Scenario::ResolvePaths(const std::string& folder)
{
    ResolveDistributionName(values.cdf, sizeof values.cdf, folder);
    ForEachPath(values, [&](const std::string& option, char* field, size_t size) {
        ResolveField(option, field, size, folder);
    });
}

void
Scenario::Set(const std::string& name, const std::string& text)
{
    const ddnn_param* p = nullptr;
    uint32_t job = 0;
    if (ddnn_scenario_param_address(name.c_str(), &p, &job) != DDNN_OK)
    {
        throw DdnnError(name + ": no such scenario parameter");
    }
    ddnn_diag diag{};
    if (ddnn_scenario_set_job_param(&values, p, job, text.c_str(), &diag) != DDNN_OK)
    {
        throw DdnnError(JobArgument(job, p->flag) + ": " + diag.message);
    }
}

void
Scenario::UseJobTransport(uint32_t k, const std::string& name)
{
    const std::string job = "training[" + std::to_string(k + 1) + "].";
    Set(job + "transport", name);
    const TypeId chosen = PartitionTransport::Lookup(name);
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string target = p->sets ? p->sets : "";
        TypeId owner;
        TypeId::AttributeInformation info;
        if (ddnn_param_is_per_job(p)
            && TypeId::LookupByNameFailSafe(target.substr(0, target.rfind("::")), &owner)
            && owner.IsChildOf(PartitionTransport::GetTypeId())
            && !chosen.LookupAttributeByName(target.substr(target.rfind("::") + 2), &info))
        {
            Set(job + p->attribute, ddnn_param_default(p));
        }
    }
}

void
Scenario::CheckRanges() const
{
    const ddnn_param* bad = nullptr;
    ddnn_diag diag{};
    if (ddnn_scenario_check(&values, &bad, &diag) != DDNN_OK)
    {
        throw DdnnError("--" + std::string(bad ? bad->flag : "?") + ": " + diag.message);
    }
}

uint32_t
Scenario::JobCount() const
{
    return values.job_count;
}

const ddnn_scenario_job&
Scenario::Job(uint32_t k) const
{
    return values.jobs[k];
}

uint32_t
Scenario::WorkersOf(uint32_t k) const
{
    return Job(k).workers > 0 ? Job(k).workers : values.workers;
}

DataRate
Scenario::LinkRate() const
{
    return ScaledRate(*this, DataRate(values.data_rate));
}

bool
Scenario::ReadsSlackTags() const
{
    return EgressQueue::Get(EgressQueue::FromScenario(values.queue_disc)).readsSlackTags;
}

Time
Scenario::LinkDelay() const
{
    return NanoSeconds(std::llround(values.delay_us * 1e3));
}

TransportSettings
Scenario::Transport() const
{
    const ddnn_scenario& x = values;
    TransportSettings t = TransportSettings::Profile(x.transport_profile);
    t.congestionControl = x.congestion_control;
    t.trainingCongestionControl = x.training_congestion_control;
    t.backgroundCongestionControl = x.background_congestion_control;
    t.segmentSize = x.segment_size;
    t.socketBufferBytes = x.socket_buffer_bytes;
    t.initialCwnd = x.initial_cwnd;
    t.lossRecovery = x.loss_recovery;
    t.minRtoMs = x.min_rto_ms;
    t.initialRtoMs = x.initial_rto_ms;
    t.clockGranularityUs = x.clock_granularity_us;
    t.delAckTimeoutUs = x.del_ack_timeout_us;
    t.delAckCount = x.del_ack_count;
    t.maxSegLifetimeMs = x.max_seg_lifetime_ms;
    t.sendChunkBytes = x.send_chunk_bytes;
    t.backgroundAcksInDataBand = x.background_acks_in_data_band != 0;
    return t;
}

void
Scenario::SetTransport(const TransportSettings& t)
{
    ddnn_scenario& x = values;
    auto copy = [](char* dst, size_t size, const std::string& text, const char* flag) {
        if (text.size() >= size)
        {
            throw DdnnError(std::string(flag) + ": '" + text + "' is too long");
        }
        text.copy(dst, text.size());
        dst[text.size()] = '\0';
    };
    copy(x.transport_profile, sizeof x.transport_profile, t.profile, "--transportProfile");
    copy(x.congestion_control,
         sizeof x.congestion_control,
         t.congestionControl,
         "--congestionControl");
    copy(x.training_congestion_control,
         sizeof x.training_congestion_control,
         t.trainingCongestionControl,
         "--trainingCongestionControl");
    copy(x.background_congestion_control,
         sizeof x.background_congestion_control,
         t.backgroundCongestionControl,
         "--backgroundCongestionControl");
    x.segment_size = t.segmentSize;
    x.socket_buffer_bytes = t.socketBufferBytes;
    x.initial_cwnd = t.initialCwnd;
    copy(x.loss_recovery, sizeof x.loss_recovery, t.lossRecovery, "--lossRecovery");
    x.min_rto_ms = t.minRtoMs;
    x.initial_rto_ms = t.initialRtoMs;
    x.clock_granularity_us = t.clockGranularityUs;
    x.del_ack_timeout_us = t.delAckTimeoutUs;
    x.del_ack_count = t.delAckCount;
    x.max_seg_lifetime_ms = t.maxSegLifetimeMs;
    x.send_chunk_bytes = t.sendChunkBytes;
    x.background_acks_in_data_band = t.backgroundAcksInDataBand ? 1 : 0;
}

Time
Scenario::ComputeTime(uint32_t k, uint64_t modelBytes) const
{
    const ddnn_scenario_job& job = Job(k);
    if (job.compute_ms > 0)
    {
        return NanoSeconds(std::llround(job.compute_ms * 1e6));
    }
    double networkS = modelBytes * 2.0 * (1.0 - 1.0 / WorkersOf(k)) * 8 / LinkRate().GetBitRate();
    // The profile's own bound on compute: far inside ns-3's signed 64-bit nanoseconds.
    const double ns = job.rcp * networkS * 1e9;
    const bool tooLong = !(ns <= static_cast<double>(DDNN_PROFILE_MAX_COMPUTE_NS));
    if (tooLong || std::llround(ns) < 1)
    {
        std::ostringstream os;
        os << "--rcp: " << job.rcp << " gives a compute time of " << ns / 1e9
           << " s per iteration at --dataRate=" << values.data_rate
           << (tooLong ? ", more than 10^6 s" : ", less than 1 ns");
        throw DdnnError(os.str());
    }
    return NanoSeconds(std::llround(ns));
}

uint32_t
Scenario::GetServerCount() const
{
    return PlanTopology(*this, values.topology_kind, values.workers)->GetPlannedServerCount();
}

uint32_t
Scenario::GetPathLinks() const
{
    return PlanTopology(*this, values.topology_kind, values.workers)->GetPathLinks();
}

namespace
{

/** The ranks a job's stragglers list names ("0,3"), each below `workers` and once. */
void
CheckStragglers(const ddnn_scenario_job& job, uint32_t workers, const std::string& argument)
{
    std::set<uint32_t> ranks;
    std::stringstream list(job.stragglers);
    std::string item;
    while (job.stragglers[0] != '\0' && std::getline(list, item, ','))
    {
        char* end = nullptr;
        const unsigned long rank = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || !std::isdigit(static_cast<unsigned char>(item[0]))
            || rank >= workers || !ranks.insert(rank).second)
        {
            throw DdnnError(argument + ": expected distinct worker ranks below "
                            + std::to_string(workers) + " like 0,3, got '" + job.stragglers + "'");
        }
    }
}

/** The names in `names` whose registered type (`lookup`) has attribute `name`, as "a or b". */
std::string
ChoicesWith(const std::string& name,
            const std::vector<std::string>& names,
            TypeId (*lookup)(const std::string&))
{
    std::string with;
    for (const std::string& choice : names)
    {
        TypeId::AttributeInformation info;
        if (lookup(choice).LookupAttributeByName(name, &info))
        {
            with += (with.empty() ? "" : " or ") + choice;
        }
    }
    return with;
}

/** A registry a scenario chooses from: its base type, names, lookup, and the option naming it. */
struct Choice
{
    TypeId base;
    std::vector<std::string> names;
    TypeId (*lookup)(const std::string&);
    std::string what; // "topology"
    std::string flag; // "topology"
};

/**
 * Refuses a value (other than its default) for an attribute of a registered type that the
 * chosen one (`chosen`, named `name`) does not have: the run would ignore it. `job` >= 0: the
 * choice is that job's, and so are the rows checked.
 */
void
CheckChosenTypeHas(const Scenario& scenario,
                   const Choice& choice,
                   const std::string& name,
                   TypeId chosen,
                   int job = -1)
{
    const Scenario defaults;
    auto refuse = [&](const std::string& flag, const std::string& attribute) {
        TypeId::AttributeInformation info;
        if (!chosen.LookupAttributeByName(attribute, &info))
        {
            throw DdnnError((job < 0 ? "--" + flag : JobArgument(job, flag)) + ": the " + name + " "
                            + choice.what + " has no " + attribute + "; --" + choice.flag + "="
                            + ChoicesWith(attribute, choice.names, choice.lookup) + " has");
        }
    };
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string target = p->sets ? p->sets : "";
        TypeId owner;
        if (target.empty() || ddnn_param_is_per_job(p) != (job >= 0)
            || !TypeId::LookupByNameFailSafe(target.substr(0, target.rfind("::")), &owner)
            || !owner.IsChildOf(choice.base))
        {
            continue;
        }
        char given[DDNN_PATH_MAX + 64]; // a scenario's longest text, or a number
        char fallback[DDNN_PATH_MAX + 64];
        const uint32_t k = job < 0 ? 0 : static_cast<uint32_t>(job);
        if (ddnn_scenario_format_job_param(&scenario.values, p, k, given, sizeof given) == DDNN_OK
            && ddnn_scenario_format_job_param(&defaults.values, p, 0, fallback, sizeof fallback)
                   == DDNN_OK
            && std::strcmp(given, fallback) != 0)
        {
            refuse(p->flag, target.substr(target.rfind("::") + 2));
        }
    }
    // A row the runner converts before it reaches its attribute (empty text: none).
    if (choice.base == ServerTopology::GetTypeId() && scenario.values.rate_cap[0] != '\0')
    {
        refuse("rateCap", "RateCap");
    }
}

/**
 * Options read in one mode only: `flag` is read when parameter `mode` ("training.syncer") is one
 * of `values` ("a|b"; "*": when it is given at all), or parameter `orMode` is one of `orValues`;
 * given (other than its default) in another mode, the run would ignore it, so it is refused. A
 * scenario-wide option whose mode is a job's is read when any job's mode reads it. A registered
 * type's attributes are found by CheckChosenTypeHas instead.
 */
struct ModeOption
{
    const char* flag;
    const char* mode;
    const char* values;
    const char* what; //!< what the option sets, for the message
    const char* orMode{nullptr};
    const char* orValues{nullptr};
};

const ModeOption kModeOptions[] = {
    {"fallback", "training.collective", "in-network-aggregation", "fallback collective"},
    {"aggregationSlots", "training.collective", "in-network-aggregation", "aggregation slots"},
    {"aggregationSlotBytes",
     "training.collective",
     "in-network-aggregation",
     "aggregation slot size"},
    {"aggregationTimeoutUs",
     "training.collective",
     "in-network-aggregation",
     "aggregation timeout"},
    {"aggregationMemory",
     "training.collective",
     "in-network-aggregation",
     "switches' aggregation memory"},
    {"parameterServers",
     "training.collective",
     "parameter-server",
     "number of parameter servers",
     "training.fallback",
     "parameter-server"},
    {"syncCycleUs", "training.syncer", "network", "sync cycle"},
    {"ecnThresholdPackets", "topology.queue-disc", "prio-red", "ECN threshold"},
    {"fabricDataRate", "topology.kind", "leaf-spine|fat-tree", "switch-to-switch link rate"},
    {"stragglerScale", "training.stragglers", "*", "stragglers' compute scale"},
};

/** Parameter `name`'s value (job k's, for a job's parameter) as text. */
std::string
FormattedValue(const Scenario& scenario, const ddnn_param* p, uint32_t k)
{
    char text[DDNN_PATH_MAX + 64];
    if (ddnn_scenario_format_job_param(
            &scenario.values, p, ddnn_param_is_per_job(p) ? k : 0, text, sizeof text)
        != DDNN_OK)
    {
        throw DdnnError(std::string("--") + p->flag + ": cannot format its value");
    }
    return text;
}

/** Whether `value` is one of `values` ("a|b"; "*": any but empty). */
bool
IsOneOf(const std::string& value, const std::string& values)
{
    return values == "*" ? !value.empty()
                         : ("|" + values + "|").find("|" + value + "|") != std::string::npos;
}

/** Refuses an option of kModeOptions given in another mode. */
void
CheckModeOptions(const Scenario& scenario)
{
    const Scenario defaults;
    for (const ModeOption& option : kModeOptions)
    {
        const ddnn_param* p = ddnn_scenario_param_by_flag(option.flag);
        const ddnn_param* mode = ddnn_scenario_param_named(option.mode);
        const ddnn_param* orMode
            = option.orMode ? ddnn_scenario_param_named(option.orMode) : nullptr;
        auto reads = [&](uint32_t k) {
            return IsOneOf(FormattedValue(scenario, mode, k), option.values)
                   || (orMode && IsOneOf(FormattedValue(scenario, orMode, k), option.orValues));
        };
        const bool perJob = ddnn_param_is_per_job(p);
        for (uint32_t k = 0; k < (perJob ? scenario.JobCount() : 1); ++k)
        {
            bool read = reads(k);
            for (uint32_t j = 0; !perJob && j < scenario.JobCount(); ++j)
            {
                read = read || reads(j); // a scenario-wide option: any job's mode reads it
            }
            if (read || FormattedValue(scenario, p, k) == FormattedValue(defaults, p, 0))
            {
                continue;
            }
            const std::string values = option.values;
            const std::string first = values.substr(0, values.find('|'));
            std::string with = values == "*" ? "--" + std::string(mode->flag)
                                             : "--" + std::string(mode->flag) + "=" + values;
            std::replace(with.begin(), with.end(), '|', ',');
            const std::string chosen = FormattedValue(scenario, mode, k);
            throw DdnnError(
                (perJob ? JobArgument(k, option.flag) : std::string("--") + option.flag) + ": the "
                + option.what + " is read only with " + with
                + (orMode ? " (or --" + std::string(orMode->flag) + "=" + option.orValues + ")"
                          : "")
                + (values == "*" ? "" : ", not " + chosen) + " (leave it out, or give --"
                + mode->flag + (values == "*" ? "" : "=" + first) + ")");
        }
    }
}

/**
 * Refuses a priority policy that yields buffers at a ToS of its own (LowTos) with a training
 * priority of another ToS: the policy would ignore the priority the user chose.
 */
void
CheckPolicyYieldsAtJobTos(const Scenario& scenario, uint32_t k)
{
    const ddnn_scenario_job& job = scenario.Job(k);
    TypeId::AttributeInformation info;
    const TypeId policy = BufferPriorityPolicy::Lookup(job.priority_policy);
    if (!policy.LookupAttributeByName("LowTos", &info))
    {
        return;
    }
    const auto low = DynamicCast<const UintegerValue>(info.initialValue)->Get();
    if (scenario.JobTos(k) != low)
    {
        std::ostringstream os;
        os << JobArgument(k, "priorityPolicy") << "=" << job.priority_policy
           << ": the policy yields buffers at ToS 0x" << std::hex << low
           << " whatever the training priority, so it would ignore "
           << (k == 0 ? "--trainingPriority=" + std::string(scenario.values.training_priority)
                      : "this job's band")
           << " (ToS 0x" << +scenario.JobTos(k) << "): give --trainingPriority=low";
        throw DdnnError(os.str());
    }
}

const Choice&
TopologyChoice()
{
    static const Choice topology{ServerTopology::GetTypeId(),
                                 ServerTopology::Names(),
                                 &ServerTopology::Lookup,
                                 "topology",
                                 "topology"};
    return topology;
}

const Choice&
PolicyChoice()
{
    static const Choice policy{BufferPriorityPolicy::GetTypeId(),
                               BufferPriorityPolicy::Names(),
                               &BufferPriorityPolicy::Lookup,
                               "priority policy",
                               "priorityPolicy"};
    return policy;
}

const Choice&
TransportChoice()
{
    static const Choice transport{PartitionTransport::GetTypeId(),
                                  PartitionTransport::Names(),
                                  &PartitionTransport::Lookup,
                                  "transport",
                                  "transport"};
    return transport;
}

const Choice&
PatternChoice()
{
    static const Choice pattern{BackgroundPattern::GetTypeId(),
                                BackgroundPattern::Names(),
                                &BackgroundPattern::Lookup,
                                "background pattern",
                                "backgroundPattern"};
    return pattern;
}

} // namespace

void
Scenario::CheckTopology() const
{
    Ptr<ServerTopology> planned = PlanTopology(*this, values.topology_kind, values.workers);
    try
    {
        planned->CheckConfig();
    }
    catch (const DdnnError& e)
    {
        // "ns3::Type::Attribute: what" as the option that sets the attribute: "--flag: what".
        const std::string what = e.what();
        const std::string attribute = what.substr(0, what.find(": "));
        for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
        {
            const ddnn_param* p = ddnn_scenario_param(i);
            if (p->sets != nullptr && attribute == p->sets)
            {
                throw DdnnError("--" + std::string(p->flag) + what.substr(attribute.size()));
            }
        }
        throw;
    }
    CheckChosenTypeHas(*this, TopologyChoice(), values.topology_kind, planned->GetInstanceTypeId());
    // The options that shape the topology: the table's rows that set its attributes.
    std::vector<std::string> shape;
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        TypeId owner;
        const std::string target = p->sets ? p->sets : "";
        if (!target.empty()
            && TypeId::LookupByNameFailSafe(target.substr(0, target.rfind("::")), &owner)
            && planned->GetInstanceTypeId() == owner && p->type == DDNN_PARAM_U32)
        {
            shape.emplace_back(p->flag);
        }
    }
    const std::string kind = values.topology_kind;
    const uint64_t servers = planned->GetPlannedServerCount();
    if (servers > kMaxServers)
    {
        throw DdnnError("--" + (shape.empty() ? "topology" : shape.front()) + ": the " + kind
                        + " would have " + std::to_string(servers) + " servers, at most "
                        + std::to_string(kMaxServers));
    }
    // Global routing's tables grow with nodes x links: 4096 links take about 600 MB and
    // seconds to build (a fat tree of k = 16, the largest, has 3072 links, 1344 nodes).
    const uint64_t links = planned->GetPlannedLinkCount();
    const uint64_t nodes = planned->GetPlannedNodeCount();
    if (links > kMaxFabricLinks || nodes > kMaxFabricNodes)
    {
        throw DdnnError("--" + (shape.empty() ? "topology" : shape.back()) + ": the " + kind
                        + " would have " + std::to_string(links) + " links and "
                        + std::to_string(nodes) + " nodes, at most "
                        + std::to_string(kMaxFabricLinks) + " links and "
                        + std::to_string(kMaxFabricNodes) + " nodes");
    }
}

void
Scenario::CheckEgressSettings() const
{
    EgressQueue egress;
    egress.kind = EgressQueue::FromScenario(values.queue_disc);
    egress.bandWeights = values.band_weights;
    const Scenario defaults;
    if (!EgressQueue::Get(egress.kind).takesBandWeights
        && std::strcmp(values.band_weights, defaults.values.band_weights) != 0)
    {
        std::string with;
        for (const std::string& name : EgressQueue::Names())
        {
            if (EgressQueue::Get(EgressQueue::FromScenario(name)).takesBandWeights)
            {
                with += (with.empty() ? "" : " or ") + name;
            }
        }
        throw DdnnError("--bandWeights: the " + std::string(values.queue_disc)
                        + " queue disc takes no band weights; --queueDisc=" + with + " does");
    }
    if (const std::string wrong = egress.CheckSettings(); !wrong.empty())
    {
        throw DdnnError("--bandWeights: " + wrong);
    }
}

void
Scenario::ValidateTraining() const
{
    auto fail = [](const std::string& argument, const std::string& what) {
        throw DdnnError("--" + argument + ": " + what);
    };
    CheckRanges(); // each value within its parameter's range
    const std::string kind = values.topology_kind;
    CheckEgressSettings();
    CheckModeOptions(*this);
    for (uint32_t k = 0; k < JobCount(); ++k)
    {
        const ddnn_scenario_job& job = Job(k);
        auto failJob = [&](const std::string& flag, const std::string& what) {
            throw DdnnError(JobArgument(k, flag) + ": " + what);
        };
        CheckChosenTypeHas(*this,
                           PolicyChoice(),
                           job.priority_policy,
                           BufferPriorityPolicy::Lookup(job.priority_policy),
                           static_cast<int>(k));
        CheckChosenTypeHas(*this,
                           TransportChoice(),
                           job.transport,
                           PartitionTransport::Lookup(job.transport),
                           static_cast<int>(k));
        CheckPolicyYieldsAtJobTos(*this, k);
        if (job.min_rto_ms > 0 && job.min_rto_ms < 0.01)
        {
            failJob("trainingMinRtoMs",
                    "expected 0 (the transport's) or at least 0.01 ms (the floor that bounds "
                    "the timers' events)");
        }
        if (!(job.compute_ms > 0) && !(job.rcp > 0))
        {
            failJob("computeMs", "expected a positive compute time in ms (or give --rcp)");
        }
        if (job.iterations == 0 && !(job.stop_s > 0))
        {
            failJob("iterations", "give a number of iterations or a positive --stopS");
        }
        const uint32_t n = WorkersOf(k);
        if (n < 2)
        {
            failJob("jobWorkers", "expected 0 (the topology's workers) or at least 2, got 1");
        }
        const bool dedicated = Is(job.parameter_server_hosts, "dedicated");
        const ddnn_collective_ops* collective = ddnn_collective_find(job.collective);
        if (dedicated && collective != nullptr && !collective->dedicated_servers)
        {
            std::string serving; // the collectives that run on server ranks of their own
            for (size_t i = 0; i < ddnn_collective_registered(); ++i)
            {
                if (ddnn_collective_at(i)->dedicated_servers)
                {
                    serving
                        += (serving.empty() ? "" : ", ") + std::string(ddnn_collective_at(i)->name);
                }
            }
            failJob("parameterServerHosts",
                    "dedicated hosts serve the " + serving + " collective, not "
                        + std::string(job.collective));
        }
        if (Is(job.distribution, "multicast"))
        {
            if (collective == nullptr || !collective->group_distribution || !dedicated)
            {
                failJob("distribution",
                        "multicast sends a dedicated parameter server's updates: give "
                        "--collective=parameter-server --parameterServerHosts=dedicated");
            }
        }
        if (collective != nullptr && collective->network_peer && !Is(job.transport, "tcp"))
        {
            failJob("transport",
                    std::string(job.collective)
                        + " aggregates in a switch: expected tcp (the "
                          "packet transport), got '"
                        + job.transport + "'");
        }
        if (const ddnn_collective_ops* fallback = ddnn_collective_find(job.fallback);
            fallback == nullptr || fallback->network_peer)
        {
            failJob("fallback",
                    "expected a registered collective of ranks only (e.g. ring-allreduce), got '"
                        + std::string(job.fallback) + "'");
        }
        if (dedicated && n + job.parameter_servers > GetServerCount())
        {
            failJob("parameterServers",
                    std::to_string(n) + " workers and " + std::to_string(job.parameter_servers)
                        + " dedicated parameter servers do not fit the " + kind + "'s "
                        + std::to_string(GetServerCount()) + " servers");
        }
        if (!dedicated && job.parameter_servers > n)
        {
            failJob("parameterServers",
                    "expected at most the job's " + std::to_string(n)
                        + " workers as parameter servers, got "
                        + std::to_string(job.parameter_servers));
        }
        CheckStragglers(job, n, JobArgument(k, "stragglers"));
        if (job.jitter[0] != '\0')
        {
            RandomVariableFromText(job.jitter, JobArgument(k, "jitter"));
        }
        if (n > GetServerCount())
        {
            failJob(job.workers > 0 ? "jobWorkers" : "workers",
                    std::to_string(n) + " workers do not fit the " + kind + "'s "
                        + std::to_string(GetServerCount()) + " servers");
        }
    }
    CheckPorts(*this, false);
    ProgressMeter::Enabled(progress); // throws on an unknown mode
    const std::string dataRate = values.data_rate;
    const std::string rateCap = values.rate_cap;
    if (!IsRate(dataRate))
    {
        fail("dataRate",
             "expected a rate such as 10Gbps, got '" + dataRate + "' (1bps to 1000Gbps)");
    }
    if (!rateCap.empty() && !IsRate(rateCap))
    {
        fail("rateCap",
             "expected a rate such as 1Gbps (or nothing for no cap), got '" + rateCap
                 + "' (1bps to 1000Gbps)");
    }
    CheckTopology();
    const std::string fabricDataRate = values.fabric_data_rate;
    if (!fabricDataRate.empty() && !IsRate(fabricDataRate))
    {
        fail("fabricDataRate",
             "expected a rate such as 40Gbps, got '" + fabricDataRate + "' (1bps to 1000Gbps)");
    }
}

void
Scenario::Validate() const
{
    auto fail = [](const std::string& argument, const std::string& what) {
        throw DdnnError("--" + argument + ": " + what);
    };
    CheckRanges(); // each value within its parameter's range
    CheckScalable(*this);
    CheckChosenTypeHas(*this,
                       PatternChoice(),
                       values.background_pattern,
                       BackgroundPattern::Lookup(values.background_pattern));
    const double durationS = values.duration_s;
    for (uint32_t k = 0; k < JobCount(); ++k)
    {
        const ddnn_scenario_job& job = Job(k);
        const uint32_t bands = EgressQueue::Bands(EgressQueue::FromScenario(values.queue_disc));
        if (!Is(job.band, "scenario") && std::stoul(job.band) >= bands)
        {
            throw DdnnError(JobArgument(k, "band") + ": band " + job.band
                            + " needs --queueDisc=prio4; " + values.queue_disc + " has bands 0 to "
                            + std::to_string(bands - 1));
        }
        if (!(job.start_s < durationS))
        {
            std::ostringstream os;
            os << JobArgument(k, "startS") << ": the job starts at " << job.start_s
               << " s, not before the run's end at " << durationS << " s";
            throw DdnnError(os.str());
        }
    }
    TrainingPart().ValidateTraining(); // after the bands are known to exist
    CheckPorts(*this, true);
    if (!(values.warmup_s + values.cooldown_s < durationS))
    {
        std::ostringstream os;
        os << "the measurement window [" << values.warmup_s << ", " << durationS - values.cooldown_s
           << ") s lies outside the run of " << durationS << " s";
        fail("cooldownS", os.str());
    }
    // What the run will hold in memory, before anything is built: every flow's record (about
    // 200 bytes with its sockets' bookkeeping) and every utilization bin of every link.
    const double maxRecords = 1e7;
    const double flows = values.flow_rate * GetServerCount() * durationS;
    if (values.schedule[0] == '\0' && flows > maxRecords)
    {
        std::ostringstream os;
        os << values.flow_rate << " flows/s per server x " << GetServerCount() << " servers x "
           << durationS << " s makes " << flows << " flows, more than 10^7 (about 2 GB)";
        fail("flowRate", os.str());
    }
    const double bins = durationS / (values.util_interval_ms / 1e3) * GetServerCount() * 4;
    if (bins > maxRecords)
    {
        std::ostringstream os;
        os << durationS << " s in bins of " << values.util_interval_ms << " ms on "
           << GetServerCount() * 4 << " links makes " << bins << " bins, more than 10^7";
        fail("utilIntervalMs", os.str());
    }
}

std::string
Scenario::FirstDifference(const Scenario& other, const std::vector<std::string>& ignored) const
{
    if (JobCount() != other.JobCount())
    {
        return "training jobs: " + std::to_string(JobCount()) + " vs "
               + std::to_string(other.JobCount());
    }
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string name = std::string(p->element) + "." + p->attribute;
        if (std::find(ignored.begin(), ignored.end(), name) != ignored.end())
        {
            continue;
        }
        const uint32_t jobs = ddnn_param_is_per_job(p) ? JobCount() : 1;
        for (uint32_t k = 0; k < jobs; ++k)
        {
            char mine[DDNN_PATH_MAX + 64]; // a scenario's longest text, or a number
            char theirs[DDNN_PATH_MAX + 64];
            if (ddnn_scenario_format_job_param(&values, p, k, mine, sizeof mine) != DDNN_OK
                || ddnn_scenario_format_job_param(&other.values, p, k, theirs, sizeof theirs)
                       != DDNN_OK
                || std::strcmp(mine, theirs) != 0)
            {
                return (k > 0 ? "training[" + std::to_string(k + 1) + "]." + p->attribute : name)
                       + ": '" + mine + "' vs '" + theirs + "'";
            }
        }
    }
    const ddnn_scenario& a = values;
    const ddnn_scenario& b = other.values;
    for (uint32_t d = 0; d < std::max(a.ns3_default_count, b.ns3_default_count); ++d)
    {
        if (d >= a.ns3_default_count || d >= b.ns3_default_count
            || std::strcmp(a.ns3_defaults[d].name, b.ns3_defaults[d].name) != 0
            || std::strcmp(a.ns3_defaults[d].value, b.ns3_defaults[d].value) != 0)
        {
            return "<ns3-default> number " + std::to_string(d + 1);
        }
    }
    return "";
}

Scenario
Scenario::ComparedAt(const std::string& priority) const
{
    Scenario at = *this;
    at.Set("priority.training", priority);
    at.compare = false;
    if (priority != "same")
    {
        return at;
    }
    // Every job static, and the rows of the policies (those whose attribute belongs to a
    // BufferPriorityPolicy) back at their defaults, which the static policy accepts.
    const Scenario defaults;
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string target = p->sets ? p->sets : "";
        TypeId owner;
        const bool policyRow
            = std::string(p->element) + "." + p->attribute == "training.priority-policy"
              || (!target.empty()
                  && TypeId::LookupByNameFailSafe(target.substr(0, target.rfind("::")), &owner)
                  && owner.IsChildOf(BufferPriorityPolicy::GetTypeId()));
        if (!policyRow || !ddnn_param_is_per_job(p))
        {
            continue;
        }
        char text[DDNN_PATH_MAX + 64]; // a scenario's longest text, or a number
        ddnn_diag diag{};
        for (uint32_t k = 0; k < at.JobCount(); ++k)
        {
            if (ddnn_scenario_format_job_param(&defaults.values, p, 0, text, sizeof text) != DDNN_OK
                || ddnn_scenario_set_job_param(&at.values, p, k, text, &diag) != DDNN_OK)
            {
                throw DdnnError(JobArgument(k, p->flag)
                                + ": cannot reset for --compare: " + diag.message);
            }
        }
    }
    return at;
}

std::pair<std::string, std::string>
Scenario::TenantPriorities() const
{
    const std::string priority = values.training_priority;
    if (priority == "high")
    {
        return {"high", "band1"};
    }
    return {priority, "same"};
}

uint8_t
Scenario::BackgroundTos() const
{
    return TenantPriority::Tos("--trainingPriority", TenantPriorities().second);
}

uint8_t
Scenario::JobTos(uint32_t k) const
{
    const char* band = Job(k).band;
    if (Is(band, "scenario"))
    {
        return TenantPriority::Tos("--trainingPriority", TenantPriorities().first);
    }
    return EgressQueue::TosOfBand(EgressQueue::FromScenario(values.queue_disc), std::stoul(band));
}

Scenario
Scenario::TrainingPart() const
{
    Scenario training = *this;
    for (uint32_t k = 0; k < JobCount(); ++k)
    {
        ddnn_scenario_job& job = training.values.jobs[k];
        if (job.iterations == 0 && !(job.stop_s > 0))
        {
            job.stop_s = values.duration_s; // trains until the end of the run
        }
    }
    return training;
}

Time
Scenario::WindowStart() const
{
    return Seconds(values.warmup_s);
}

Time
Scenario::WindowEnd() const
{
    return Seconds(values.duration_s - values.cooldown_s);
}

void
Scenario::CheckWindow(const std::string& duration,
                      const std::string& minimum,
                      const std::string& context) const
{
    const double durationS = values.duration_s;
    const double warmupS = values.warmup_s;
    const double cooldownS = values.cooldown_s;
    const uint32_t minIterations = values.min_iterations;
    if (minIterations == 0 || !(warmupS + cooldownS < durationS))
    {
        return; // no check asked for, or no window at all (Validate says so)
    }
    const Scenario training = TrainingPart();
    for (uint32_t k = 0; k < JobCount(); ++k)
    {
        const double ideal = IdealIterationTime(training, k).GetSeconds();
        const double from = std::max(warmupS, Job(k).start_s);
        const double holds = (durationS - cooldownS - from) / ideal;
        if (holds >= minIterations)
        {
            continue;
        }
        // Rounded up to the millisecond, so that the duration it names passes.
        const double needed = std::ceil((from + minIterations * ideal + cooldownS) * 1e3) / 1e3;
        std::ostringstream os;
        std::ostringstream milliseconds;
        milliseconds << std::fixed << std::setprecision(ideal < 0.01 ? 3 : 1) << ideal * 1e3;
        os << context << duration << "=" << durationS << ": the measurement window [" << from
           << ", " << durationS - cooldownS << ") s holds at most " << std::setprecision(3)
           << std::max(holds, 0.0) << " iterations"
           << (JobCount() > 1 ? " of training job " + std::to_string(k + 1) : "")
           << " (ideal iteration " << milliseconds.str() << " ms), fewer than " << minimum << "="
           << minIterations << ": give " << duration << "=" << std::setprecision(12) << needed
           << " or more (or " << minimum << "=0 to measure flows only)";
        throw DdnnError(os.str());
    }
}

} // namespace ns3
