/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Campaign runner: expands a campaign file (a base scenario and <vary>
 * dimensions) into runs, runs them in parallel on the local cores with
 * ddnn-datacenter, and renders the campaign's report.
 *
 *   ./ddnn-campaign --campaign=data/scenarios/thesis-grid.xml --outDir=out/grid --jobs=2
 *
 * Every run has its own folder, outDir/runs/NAME (NAME reversible: values
 * percent-encoded), with its resolved scenario.xml, log.txt and CSV files. A
 * run is finished when its MANIFEST (sizes and checksums of its outputs,
 * written last, atomically, by ddnn-datacenter) exists and every file still
 * matches: finished runs are skipped, so a killed campaign is resumed by
 * starting it again, and a killed, damaged or half-written run is redone,
 * never counted. One runner at a time per folder (a lock naming its PID); the
 * runs it starts die with it, and a restart first kills what a dead runner
 * left behind. --list prints the command of every unfinished run instead, one
 * per line, for GNU parallel or a SLURM job array (see the README).
 *
 * A case may set a path parameter to "case:NAME": the file of that name in the
 * folder of the run that differs from this one only in having case NAME of the
 * same dimension (training.oracle-reference="case:low" reads buffers.csv of the
 * all-low run of the same cell and seed). Such a run starts once that run has
 * finished, and fails in one line if it failed.
 *
 * --estimate prints what the campaign will cost and runs nothing: CPU-hours,
 * and wall time on the local cores (and on --machines of --coresPerMachine),
 * from the calibration table ddnn-bench writes (data/calibration.csv by
 * default). A real run prints the same estimate first, uses it for the time
 * left, and ends with estimated against actual.
 */

#include "runner/runner.h"

#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

struct Run
{
    std::string name;
    std::string dir;
    Scenario scenario;
    std::map<std::string, std::string> cases; //!< dimension of cases -> this run's case
    //! its value in every dimension: the parameter or the cases' name, and the value or case
    std::vector<std::pair<std::string, std::string>> point;
    double estimateS{0}; //!< expected CPU seconds (EstimateRun)
    int after{-1};       //!< the run whose outputs this one reads (a case reference), or -1
    std::string redone;  //!< why a complete run found here is run again ("": it is not)
};

/** The prefix of a path value that names another case's run (see the file's comment). */
const std::string CASE_REFERENCE = "case:";

/** A path parameter a case may point at another case's run, and the file it means there. */
struct CaseReferenceField
{
    const char* parameter;
    char* (*field)(ddnn_scenario& s, uint32_t job);
    const char* file;
};

const CaseReferenceField CASE_REFERENCE_FIELDS[] = {
    {"training.oracle-reference",
     [](ddnn_scenario& s, uint32_t job) -> char* { return s.jobs[job].oracle_reference; },
     "buffers.csv"},
};

/** A run's case reference, kept aside while its scenario's paths are resolved. */
struct PendingReference
{
    size_t run;
    uint32_t job;
    const CaseReferenceField* field;
    std::string caseName;
};

/**
 * Points every case reference at the run it names (same values in every other dimension),
 * as an absolute path, and records the order. One line for a name that is no case, a case
 * of two dimensions, a run that names itself, or a chain.
 */
void
ResolveCaseReferences(std::vector<Run>& runs,
                      const std::vector<PendingReference>& pending,
                      const std::vector<std::vector<std::string>>& dimensionCases,
                      const std::string& outDir,
                      const std::string& file)
{
    if (pending.empty())
    {
        return;
    }
    std::map<std::vector<std::pair<std::string, std::string>>, size_t> byPoint;
    for (size_t i = 0; i < runs.size(); ++i)
    {
        byPoint[runs[i].point] = i;
    }
    std::string base = outDir;
    if (base.empty() || base[0] != '/')
    {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd))
        {
            throw DdnnError(std::string("cannot read the working folder: ") + std::strerror(errno));
        }
        base = std::string(cwd) + "/" + base;
    }
    for (const PendingReference& ref : pending)
    {
        Run& run = runs[ref.run];
        const std::string what = file + ": run " + run.name + ": " + ref.field->parameter + "=\""
                                 + CASE_REFERENCE + ref.caseName + "\": ";
        std::vector<size_t> dims;
        for (size_t d = 0; d < dimensionCases.size(); ++d)
        {
            const auto& cases = dimensionCases[d];
            if (std::find(cases.begin(), cases.end(), ref.caseName) != cases.end())
            {
                dims.push_back(d);
            }
        }
        if (dims.size() != 1)
        {
            throw DdnnError(what
                            + (dims.empty() ? "no dimension of the campaign has that case"
                                            : "two dimensions have that case"));
        }
        std::vector<std::pair<std::string, std::string>> point = run.point;
        point[dims[0]].second = ref.caseName;
        const size_t target = byPoint.at(point);
        if (target == ref.run)
        {
            throw DdnnError(what + "a run cannot read its own outputs");
        }
        // No chains, in either order: the target reads no run, and no run reads this one.
        const bool isRead = std::any_of(runs.begin(), runs.end(), [&](const Run& other) {
            return other.after == static_cast<int>(ref.run);
        });
        if (runs[target].after >= 0 || isRead
            || (run.after >= 0 && static_cast<size_t>(run.after) != target))
        {
            throw DdnnError(what + "a run may read one other run, which reads none");
        }
        run.after = static_cast<int>(target);
        const std::string path = base + "/runs/" + runs[target].name + "/" + ref.field->file;
        char* field = ref.field->field(run.scenario.values, ref.job);
        if (path.size() >= DDNN_PATH_MAX)
        {
            throw DdnnError(what + "the path '" + path + "' is longer than "
                            + std::to_string(DDNN_PATH_MAX - 1) + " bytes");
        }
        std::snprintf(field, DDNN_PATH_MAX, "%s", path.c_str());
    }
}

bool
Exists(const std::string& path)
{
    return access(path.c_str(), F_OK) == 0;
}

/** Whether a run's outputs are complete (see WriteOutputManifest); `why` when not. */
bool
Finished(const Run& run, std::string& why)
{
    std::error_code ec;
    if (std::filesystem::is_symlink(run.dir, ec))
    {
        // Its outputs are another folder's: neither counted nor written through.
        throw DdnnError(run.dir
                        + ": is a symbolic link: expected the run's own folder (remove "
                          "the link, or give another --outDir)");
    }
    if (!VerifyOutputManifest(run.dir, why))
    {
        return false;
    }
    // Complete, but is it this campaign's run? Another campaign (or an edited one) may have
    // left a run of the same name with other values: the scenario the run wrote must be the
    // one this campaign gives it (a run with a precision ran its own duration, and wrote
    // precision 0: those two are not compared).
    Scenario ran;
    try
    {
        LoadScenarioFile(run.dir + "/scenario.xml", ran);
    }
    catch (const DdnnError& e)
    {
        why = std::string("its scenario.xml does not read back: ") + e.what();
        return false;
    }
    std::vector<std::string> ignored;
    if (run.scenario.values.precision > 0)
    {
        ignored = {"run.duration-s", "run.precision"};
    }
    const std::string difference = run.scenario.FirstDifference(ran, ignored);
    if (!difference.empty())
    {
        why = "it ran another scenario than this campaign's (" + difference
              + ", this campaign's first)";
        return false;
    }
    return true;
}

bool
Finished(const Run& run)
{
    std::string why;
    return Finished(run, why);
}

/**
 * A run still going from a runner that died before this one (its PID in the run's .pid
 * file, and /proc/PID/cmdline naming the run's folder): killed and waited for, so that it
 * cannot write over the run this runner starts again.
 */
void
KillLeftover(const Run& run)
{
    std::ifstream in(run.dir + "/.pid");
    pid_t pid = 0;
    if (!(in >> pid) || pid <= 1)
    {
        return;
    }
    std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
    std::string args((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    if (args.find("--outDir=" + run.dir) == std::string::npos)
    {
        return; // gone, or another process has the number now
    }
    std::cerr << "campaign: stopping PID " << pid << ", left running on " << run.name
              << " by an earlier runner" << std::endl;
    kill(pid, SIGKILL);
    for (int i = 0; i < 100 && kill(pid, 0) == 0; ++i)
    {
        usleep(50000);
    }
}

/** The sibling program `name`, spelled as this one is (build-tree prefixes and suffixes kept). */
std::string
Sibling(const std::string& self, const std::string& name)
{
    size_t at = self.rfind("ddnn-campaign");
    if (at == std::string::npos)
    {
        return name;
    }
    return self.substr(0, at) + name + self.substr(at + std::strlen("ddnn-campaign"));
}

std::string
LastLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::string last;
    while (std::getline(in, line))
    {
        if (!line.empty())
        {
            last = line;
        }
    }
    return last;
}

/** How a run's process ended, for the line saying it failed. */
std::string
HowItEnded(int status, const std::string& incomplete)
{
    if (WIFSIGNALED(status))
    {
        return "killed by signal " + std::to_string(WTERMSIG(status)) + ", "
               + strsignal(WTERMSIG(status));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    {
        return "exit status 127: the runner could not be started";
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    {
        return "exit status " + std::to_string(WEXITSTATUS(status));
    }
    return "exit status 0, but its outputs are not complete: " + incomplete;
}

/** The last line of a run's log, or what stands for it when there is none. */
std::string
LastWords(const Run& run)
{
    const std::string last = LastLine(run.dir + "/log.txt");
    return last.empty() ? "its log.txt is empty" : last;
}

std::string
Duration(double seconds)
{
    char text[64];
    long s = static_cast<long>(seconds + 0.5);
    if (s >= 3600)
    {
        std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s % 3600 / 60);
    }
    else
    {
        std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
    }
    return text;
}

/**
 * The campaign's runs; *reference gets its <reference file>, next to the campaign file or
 * else one of ddnn's data files, read once here so that a bad table stops the campaign
 * before any run ("" without one).
 */
std::vector<Run>
ExpandCampaign(const std::string& file,
               const std::string& outDir,
               uint32_t maxRuns,
               std::string* reference)
{
    ddnn_campaign* campaign = nullptr;
    ddnn_diag diag{};
    if (ddnn_campaign_read_file(&campaign, file.c_str(), &diag) != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, file.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    *reference = ddnn_campaign_reference(campaign);
    if (!reference->empty() && reference->front() != '/')
    {
        const std::string next = file.substr(0, file.find_last_of('/') + 1) + *reference;
        *reference = PathExists(next) || !PathExists(DdnnDataPath(*reference))
                         ? next
                         : DdnnDataPath(*reference);
    }
    if (!reference->empty())
    {
        try
        {
            SeedReference::Read(*reference);
        }
        catch (...)
        {
            ddnn_campaign_free(campaign);
            throw;
        }
    }
    const size_t size = ddnn_campaign_size(campaign);
    if (size > maxRuns)
    {
        ddnn_campaign_free(campaign);
        throw DdnnError(file + ": the campaign has " + std::to_string(size)
                        + " runs, more than --maxRuns=" + std::to_string(maxRuns));
    }
    std::vector<Run> runs;
    std::vector<PendingReference> references;
    std::vector<std::vector<std::string>> dimensionCases(ddnn_campaign_dimension_count(campaign));
    for (size_t d = 0; d < dimensionCases.size() && size > 0; ++d)
    {
        if (ddnn_campaign_case_dimension(campaign, d))
        {
            // The cases of dimension d: its values as the points run through them.
            for (size_t i = 0; i < size; ++i)
            {
                const std::string value = ddnn_campaign_point_value(campaign, i, d);
                auto& cases = dimensionCases[d];
                if (std::find(cases.begin(), cases.end(), value) == cases.end())
                {
                    cases.push_back(value);
                }
            }
        }
    }
    std::set<std::string> names;
    auto reported = std::chrono::steady_clock::now();
    for (size_t i = 0; i < size; ++i)
    {
        if (i % 1000 == 999
            && std::chrono::steady_clock::now() - reported > std::chrono::seconds(5))
        {
            reported = std::chrono::steady_clock::now();
            std::cerr << "campaign: " << i << " of " << size << " runs read" << std::endl;
        }
        ddnn_scenario core;
        char name[256];
        if (ddnn_campaign_point(campaign, i, &core, name, sizeof name, &diag) != DDNN_OK)
        {
            char line[600];
            ddnn_diag_format(&diag, file.c_str(), line, sizeof line);
            ddnn_campaign_free(campaign);
            throw DdnnError(line);
        }
        if (!names.insert(name).second)
        {
            ddnn_campaign_free(campaign);
            throw DdnnError(file + ": two runs are named " + std::string(name)); // a last guard
        }
        Run run;
        run.name = name;
        run.dir = outDir + "/runs/" + name;
        for (uint32_t job = 0; job < core.job_count; ++job)
        {
            for (const CaseReferenceField& field : CASE_REFERENCE_FIELDS)
            {
                char* value = field.field(core, job);
                if (std::string(value).rfind(CASE_REFERENCE, 0) == 0)
                {
                    references.push_back({runs.size(), job, &field, value + CASE_REFERENCE.size()});
                    value[0] = '\0'; // resolved below, once every run is known
                }
            }
        }
        SetScenario(run.scenario, core, file);
        run.scenario.outDir = run.dir;
        for (size_t d = 0; d < ddnn_campaign_dimension_count(campaign); ++d)
        {
            const char* value = ddnn_campaign_point_value(campaign, i, d);
            if (const char* dimension = ddnn_campaign_case_dimension(campaign, d))
            {
                run.cases[dimension] = value;
                run.point.emplace_back(dimension, value);
            }
            else
            {
                run.point.emplace_back(ddnn_campaign_dimension_parameter(campaign, d), value);
            }
        }
        runs.push_back(run);
    }
    ddnn_campaign_free(campaign);
    ResolveCaseReferences(runs, references, dimensionCases, outDir, file);
    return runs;
}

/**
 * Every run's input files exist before any run starts (a relative one was found when the
 * campaign was read): a missing one stops the campaign here, not when its run comes. A case
 * reference names a run's output, which its run writes first.
 */
void
CheckInputFiles(const std::vector<Run>& runs, const std::string& file)
{
    for (const Run& run : runs)
    {
        ddnn_scenario values = run.scenario.values;
        Scenario::ForEachPath(values, [&](const std::string& option, char* field, size_t) {
            const bool output = run.after >= 0
                                && std::string(field).find("/runs/" + runs[run.after].name + "/")
                                       != std::string::npos;
            if (field[0] != '\0' && !output && !Exists(field))
            {
                throw DdnnError(file + ": run " + run.name + ": " + option + ": no such file "
                                + field);
            }
        });
    }
}

/** Every run's window, before any run starts: a campaign that cannot measure stops here. */
void
CheckWindows(const std::vector<Run>& runs, const std::string& file)
{
    for (const Run& run : runs)
    {
        run.scenario.CheckWindow("duration-s", "min-iterations", file + ": run " + run.name + ": ");
    }
}

std::vector<std::string>
Command(const std::string& runner, const Run& run)
{
    return {runner,
            "--scenario=" + run.dir + "/scenario.xml",
            "--outDir=" + run.dir,
            "--progress=never"};
}

/**
 * Starts a run: output to its log.txt, its PID in .pid, and killed by the kernel when this
 * runner dies (PR_SET_PDEATHSIG), however it dies.
 */
/** `arg` as one shell word. */
std::string
ShellQuoted(const std::string& arg)
{
    std::string quoted = "'";
    for (char c : arg)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

/** `text` for a comment or a message: control characters (a newline) shown as '?'. */
std::string
Printable(const std::string& text)
{
    std::string shown = text;
    for (char& c : shown)
    {
        c = static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    }
    return shown;
}

/**
 * Refuses a value with a control character where it would go into a one-line command of
 * --list or --slurm, or of a gnuplot script of the report: quoted, a newline would still end
 * the line (and start a command).
 */
void
CheckOneLine(const std::string& option, const std::string& value)
{
    if (Printable(value) != value)
    {
        throw DdnnError(option + "=" + Printable(value).substr(0, 200)
                        + ": expected a path without control characters (a newline would "
                          "split the one-line commands of --list and --slurm, and the "
                          "report's gnuplot commands)");
    }
}

/** The shell command of one run, its output into the run's log.txt. */
std::string
ShellLine(const std::string& runner, const Run& run)
{
    std::string line;
    for (const std::string& arg : Command(runner, run))
    {
        line += ShellQuoted(arg) + " ";
    }
    return line + "> " + ShellQuoted(run.dir + "/log.txt") + " 2>&1";
}

/**
 * A SLURM job array: PATH.runs holds one run's command per line, and PATH, for sbatch,
 * runs line SLURM_ARRAY_TASK_ID of it (array indices 1..N). Every value the user gave is
 * quoted in the script, and shown with its control characters replaced in its comments.
 */
void
WriteSlurmArray(const std::string& path,
                const std::string& campaign,
                const std::vector<std::string>& lines)
{
    if (lines.empty())
    {
        throw DdnnError("--slurm: every run of " + campaign + " is finished; nothing to submit");
    }
    AtomicFile runs(path + ".runs");
    for (const std::string& line : lines)
    {
        runs.Out() << line << "\n";
    }
    runs.Commit();
    AtomicFile script(path);
    script.Out() << "#!/bin/sh\n"
                 << "# ddnn campaign " << Printable(campaign) << ": " << lines.size()
                 << " unfinished runs, one per array task. Submit with: sbatch " << Printable(path)
                 << "\n"
                 << "#SBATCH --job-name=ddnn-campaign\n"
                 << "#SBATCH --array=1-" << lines.size() << "\n"
                 << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
                 << "runs=" << ShellQuoted(path + ".runs") << "\n"
                 << "line=$(sed -n \"${SLURM_ARRAY_TASK_ID:?not in a SLURM array}p\" \"$runs\")\n"
                 << "[ -n \"$line\" ] || { echo \"no run $SLURM_ARRAY_TASK_ID in $runs\" >&2; "
                    "exit 1; }\n"
                 << "exec sh -c \"$line\"\n";
    script.Commit();
    chmod(path.c_str(), 0755);
}

pid_t
Spawn(const std::vector<std::string>& command, const Run& run)
{
    std::vector<char*> argv;
    for (const std::string& arg : command)
    {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    const std::string log = run.dir + "/log.txt";
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
    {
        throw DdnnError("cannot start " + command[0] + ": " + std::strerror(errno));
    }
    if (pid == 0)
    {
        // Only async-signal-safe calls until exec.
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        {
            _exit(127); // the runner is already gone
        }
        int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || in < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0
            || dup2(in, STDIN_FILENO) < 0)
        {
            _exit(127);
        }
        execv(argv[0], argv.data());
        const char message[] = "ddnn-campaign: cannot execute the runner\n";
        ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
        (void)ignored;
        _exit(127);
    }
    std::remove((run.dir + "/.pid").c_str()); // a link planted there is removed, not followed
    std::ofstream(run.dir + "/.pid") << pid << "\n";
    return pid;
}

/** What RunAll measured of the runs it ran. */
struct RunTotals
{
    std::vector<std::string> failed;
    size_t ran{0};
    double estimateS{0}; //!< estimated CPU seconds of the runs it ran
    double cpuS{0};      //!< their CPU seconds (user + system, from wait4)
    double wallS{0};
    std::map<std::string, double> cpuByRun; //!< each run's CPU seconds, by name

    /** Adds the totals of another batch of runs. */
    void
    Add(const RunTotals& more)
    {
        failed.insert(failed.end(), more.failed.begin(), more.failed.end());
        ran += more.ran;
        estimateS += more.estimateS;
        cpuS += more.cpuS;
        wallS += more.wallS;
        cpuByRun.insert(more.cpuByRun.begin(), more.cpuByRun.end());
    }
};

/**
 * Runs the unfinished runs, `jobs` at a time. The time left is the estimate's: the running
 * runs' estimated cost not yet spent and the waiting runs' cost, spread over the cores as
 * the runner will start them (Makespan).
 */
RunTotals
RunAll(const std::vector<Run>& runs, const std::string& runner, uint32_t jobs)
{
    std::vector<const Run*> pending;
    for (const Run& run : runs)
    {
        if (!Finished(run))
        {
            KillLeftover(run);
            if (!run.redone.empty())
            {
                std::cerr << "campaign: run " << run.name << " is redone: " << run.redone
                          << std::endl;
            }
            pending.push_back(&run);
        }
    }
    const size_t total = runs.size();
    size_t done = total - pending.size();
    std::cerr << "campaign: " << total << " runs, " << done << " already finished, "
              << pending.size() << " to run on " << jobs << " cores" << std::endl;

    using Clock = std::chrono::steady_clock;
    std::map<pid_t, std::pair<const Run*, Clock::time_point>> running;
    RunTotals totals;
    std::set<const Run*> failed;
    std::vector<const Run*> waiting = pending; // not started yet, in the campaign's order
    auto start = Clock::now();
    while (!waiting.empty() || !running.empty())
    {
        // A run that reads another's outputs starts once that one is finished.
        for (auto it = waiting.begin(); it != waiting.end() && running.size() < jobs;)
        {
            const Run* run = *it;
            const Run* reference = run->after < 0 ? nullptr : &runs[run->after];
            const bool referenceWaits
                = reference
                  && (std::find(waiting.begin(), waiting.end(), reference) != waiting.end()
                      || std::any_of(running.begin(), running.end(), [&](const auto& r) {
                             return r.second.first == reference;
                         }));
            if (reference && failed.count(reference))
            {
                failed.insert(run);
                totals.failed.push_back(run->name);
                std::cerr << "\ncampaign: run " << run->name << " not run: it reads run "
                          << reference->name << "'s outputs, and that run failed" << std::endl;
                it = waiting.erase(it);
            }
            else if (referenceWaits)
            {
                ++it;
            }
            else
            {
                running[Spawn(Command(runner, *run), *run)] = {run, Clock::now()};
                it = waiting.erase(it);
            }
        }
        if (running.empty())
        {
            if (waiting.empty())
            {
                break; // the last runs' references failed: reported above
            }
            throw DdnnError(
                "campaign: runs wait for each other"); // ResolveCaseReferences forbids it
        }
        int status = 0;
        struct rusage usage
        {
        };
        pid_t pid = wait4(-1, &status, 0, &usage);
        if (pid < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            throw DdnnError(std::string("wait4: ") + std::strerror(errno));
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        const Run* run = it->second.first;
        running.erase(it);
        ++totals.ran;
        totals.estimateS += run->estimateS;
        const double cpuS = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6
                            + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
        totals.cpuS += cpuS;
        totals.cpuByRun[run->name] = cpuS;
        std::remove((run->dir + "/.pid").c_str());
        std::string incomplete;
        bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && Finished(*run, incomplete);
        if (ok)
        {
            ++done;
        }
        else
        {
            failed.insert(run);
            totals.failed.push_back(run->name);
            std::cerr << "\ncampaign: run " << run->name << " failed ("
                      << HowItEnded(status, incomplete) << "): " << LastWords(*run) << std::endl;
        }
        const auto now = Clock::now();
        std::vector<double> left;
        for (const auto& [p, started] : running)
        {
            double spent = std::chrono::duration<double>(now - started.second).count();
            left.push_back(std::max(0.0, started.first->estimateS - spent));
        }
        for (const Run* waits : waiting)
        {
            left.push_back(waits->estimateS);
        }
        std::cerr << "\rcampaign: " << done << "/" << total << " runs done";
        if (!totals.failed.empty())
        {
            std::cerr << " (" << totals.failed.size() << " failed)";
        }
        std::cerr << ", " << running.size() << " running, about " << Duration(Makespan(left, jobs))
                  << " left (estimate)   " << std::flush;
    }
    totals.wallS = std::chrono::duration<double>(Clock::now() - start).count();
    std::cerr << std::endl;
    return totals;
}

/** Sets each run's estimate; prints the campaign's cost (all runs, and those not finished). */
void
PrintEstimate(std::vector<Run>& runs,
              const std::string& calibration,
              uint32_t jobs,
              uint64_t machines,
              uint64_t coresPerMachine,
              std::ostream& out)
{
    std::vector<CalibrationPoint> table = ReadCalibration(calibration);
    double cpuAll = 0;
    double worstAll = 0;
    double simulated = 0;
    std::vector<double> toRun;
    std::vector<std::pair<std::string, std::string>> extrapolated;
    for (Run& run : runs)
    {
        RunEstimate e = EstimateRun(table, run.scenario);
        run.estimateS = e.cpuS;
        cpuAll += e.cpuS;
        worstAll += e.worstCpuS;
        simulated += run.scenario.values.duration_s;
        if (!Finished(run))
        {
            toRun.push_back(e.cpuS);
        }
        if (e.extrapolated)
        {
            extrapolated.emplace_back(run.name, e.why);
        }
    }
    double cpuToRun = 0;
    for (double c : toRun)
    {
        cpuToRun += c;
    }
    char line[256];
    out << "campaign estimate, from " << calibration << " (each run's packets, counted from its "
        << "bytes, at the CPU per packet measured at the nearest loads):\n";
    std::snprintf(line,
                  sizeof line,
                  "  %zu runs, %.6g simulated s, %.6g CPU-s = %.2f CPU-hours\n",
                  runs.size(),
                  simulated,
                  cpuAll,
                  cpuAll / 3600);
    out << line;
    if (worstAll > cpuAll)
    {
        std::snprintf(line,
                      sizeof line,
                      "  at most %.6g CPU-s = %.2f CPU-hours: runs with a precision take stages "
                      "until it is reached or their max-cpu-s is spent (the figures above count "
                      "their first stage)\n",
                      worstAll,
                      worstAll / 3600);
        out << line;
    }
    std::snprintf(line,
                  sizeof line,
                  "  to run: %zu runs, %.6g CPU-s = %.2f CPU-hours\n",
                  toRun.size(),
                  cpuToRun,
                  cpuToRun / 3600);
    out << line;
    out << "  wall time on " << jobs << " local cores (--jobs): about "
        << Duration(Makespan(toRun, jobs)) << "\n";
    if (machines > 0)
    {
        out << "  wall time on " << machines << " machines of " << coresPerMachine
            << " cores: about " << Duration(Makespan(toRun, machines * coresPerMachine)) << "\n";
    }
    out << "  extrapolated: " << extrapolated.size() << " of " << runs.size() << " runs"
        << (extrapolated.empty() ? "" : ":") << "\n";
    for (const auto& [name, why] : extrapolated)
    {
        out << "    " << name << ": " << why << "\n";
    }
    out << std::flush;
}

/** With --allocate: the expected cost (every cell's first seeds) and the worst (every seed). */
void
PrintAllocationEstimate(const std::vector<Run>& runs,
                        const std::vector<CampaignRun>& campaignRuns,
                        const AllocationOptions& allocation,
                        std::ostream& out)
{
    std::vector<double> estimates;
    for (const Run& run : runs)
    {
        estimates.push_back(run.estimateS);
    }
    const auto [first, every] = SeedAllocation(campaignRuns, estimates, allocation).EstimateS();
    char line[256];
    std::snprintf(line,
                  sizeof line,
                  "  --allocate: expected at least %.6g CPU-s = %.2f CPU-hours (every cell's first "
                  "%u seed(s)), at most %.6g CPU-s = %.2f CPU-hours (every seed)\n",
                  first,
                  first / 3600,
                  allocation.firstSeeds,
                  every,
                  every / 3600);
    out << line << std::flush;
}

/** Folders and scenario.xml of the runs about to run (a complete run is left as it is). */
void
Prepare(std::vector<Run>& runs)
{
    for (Run& run : runs)
    {
        std::string why;
        if (!Finished(run, why))
        {
            // Why a complete run is redone, said before its scenario.xml is replaced.
            run.redone = Exists(run.dir + "/MANIFEST") ? why : "";
            PrepareOutputDirectory("--outDir", run.dir);
            WriteScenarioFile(run.scenario, run.dir + "/scenario.xml");
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string campaignFile;
    std::string outDir = "ddnn-campaign-output";
    std::string jobsText = std::to_string(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    bool list = false;
    bool report = true;
    std::string maxRunsText = "10000";
    std::string slurm;
    std::string greenText = "1";
    std::string redText = "30";
    // Found through PATH, argv[0] has no folder: the program's own path names it.
    std::error_code ec;
    const std::filesystem::path self = std::string(argv[0]).find('/') == std::string::npos
                                           ? std::filesystem::read_symlink("/proc/self/exe", ec)
                                           : std::filesystem::path(argv[0]);
    std::string runner = Sibling(ec ? std::string(argv[0]) : self.string(), "ddnn-datacenter");
    bool estimate = false;
    std::string calibration = DdnnDataPath("calibration.csv");
    std::string machinesText;
    std::string coresText;
    bool allocate = false;
    std::string firstSeedsText = "2";
    std::string precisionText = "0";
    CommandLine cmd = ProgramCommandLine(__FILE__);
    AddOption(
        cmd, "campaign", "campaign XML file (a <scenario> and <vary> dimensions)", campaignFile);
    AddOption(cmd, "outDir", "campaign folder: runs/NAME per run, summary.csv, report/", outDir);
    AddOption(cmd, "jobs", "runs at a time (default: the number of cores)", jobsText);
    AddOption(cmd, "list", "print the commands of the unfinished runs and stop", list);
    AddOption(cmd, "report", "write summary.csv and the plots once every run is finished", report);
    AddOption(cmd, "runner", "the ddnn-datacenter program", runner);
    AddOption(cmd, "maxRuns", "refuse a campaign of more runs than this", maxRunsText);
    AddOption(cmd,
              "greenPercent",
              "operating map: green cells slow training down by at most this much (%)",
              greenText);
    AddOption(cmd,
              "redPercent",
              "operating map: red cells slow training down by more than this (%)",
              redText);
    AddOption(cmd,
              "slurm",
              "write a SLURM job array script (and FILE.runs) for the unfinished runs and stop",
              slurm);
    AddOption(cmd,
              "estimate",
              "print the campaign's expected CPU-hours and wall time, and run nothing",
              estimate);
    AddOption(cmd,
              "calibration",
              "calibration table (ddnn-bench --calibrationOut) for the estimate",
              calibration);
    AddOption(
        cmd, "machines", "--estimate: also the wall time on this many machines", machinesText);
    AddOption(cmd,
              "coresPerMachine",
              "--estimate: cores of each of --machines (default: the local cores)",
              coresText);
    AddOption(cmd,
              "allocate",
              "spend the seeds of the run.seed dimension where the answer is uncertain: every "
              "cell first runs --firstSeeds of them, then one more per round while its iteration "
              "change straddles a verdict threshold or is wider than --precision",
              allocate);
    AddOption(cmd, "firstSeeds", "--allocate: the seeds every cell runs first", firstSeedsText);
    AddOption(cmd,
              "precision",
              "--allocate: also run more seeds while the iteration change's half-width is above "
              "this fraction (0.05: +-5 points); 0: a verdict clear of the thresholds is enough",
              precisionText);
    ParseCommandLine(cmd, argc, argv, "ddnn-campaign");

    try
    {
        // The runs are other processes: ns-3 values set here would reach none of them.
        if (const Ns3Defaults given = Ns3DefaultsOnCommandLine(argc, argv); !given.empty())
        {
            throw DdnnError("--" + given[0].first
                            + ": the runs do not see ns-3 values given "
                              "to ddnn-campaign; put <ns3-default name=\""
                            + given[0].first + "\" value=\"...\"/> in the campaign's <scenario>");
        }
        for (const char* global : {"RngRun", "RngSeed"})
        {
            if (CommandLineGives(argc, argv, global))
            {
                throw DdnnError(std::string("--") + global
                                + ": the runs do not see ns-3 values given to ddnn-campaign; "
                                  "vary run.rng-run or run.seed in the campaign");
            }
        }
        if (campaignFile.empty())
        {
            throw DdnnError("--campaign: give the campaign file");
        }
        if (!Exists(campaignFile) && Exists(DdnnDataPath(campaignFile)))
        {
            campaignFile = DdnnDataPath(campaignFile); // e.g. scenarios/thesis-grid.xml
        }
        const uint32_t jobs = ParseWholeNumber("--jobs", jobsText, 1, 1024);
        // Every run's scenario is held in memory (about 5 kB, 1.3 ms to read each): 100,000
        // runs take about 500 MB and two minutes before the first starts.
        const uint32_t maxRuns = ParseWholeNumber("--maxRuns", maxRunsText, 1, 100000);
        ReportOptions options;
        options.greenSlowdownPercent = ParseNumber("--greenPercent", greenText, 0, 1e6);
        options.redSlowdownPercent
            = ParseNumber("--redPercent", redText, options.greenSlowdownPercent, 1e6);
        const uint64_t machines
            = machinesText.empty() ? 0 : ParseWholeNumber("--machines", machinesText, 1, 1000000);
        const uint64_t coresPerMachine
            = coresText.empty() ? std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))
                                : ParseWholeNumber("--coresPerMachine", coresText, 1, 1000000);
        AllocationOptions allocation;
        allocation.thresholds = options;
        allocation.firstSeeds = ParseWholeNumber("--firstSeeds", firstSeedsText, 1, 100000);
        allocation.precision = ParseNumber("--precision", precisionText, 0, 0.99);
        if (!allocate
            && (CommandLineGives(argc, argv, "firstSeeds")
                || CommandLineGives(argc, argv, "precision")))
        {
            throw DdnnError(
                std::string("--")
                + (CommandLineGives(argc, argv, "firstSeeds") ? "firstSeeds" : "precision")
                + ": goes with --allocate");
        }
        if (allocate && (list || !slurm.empty()))
        {
            throw DdnnError(std::string(list ? "--list" : "--slurm")
                            + ": --allocate picks the runs of each round from the last one's "
                              "results; it cannot list them beforehand");
        }
        std::vector<Run> runs
            = ExpandCampaign(campaignFile, outDir, maxRuns, &options.referenceFile);
        CheckInputFiles(runs, campaignFile); // an estimate of runs that cannot start is none
        std::vector<CampaignRun> campaignRuns;
        for (const Run& run : runs)
        {
            campaignRuns.push_back({run.name, run.dir, run.scenario, run.cases, run.point});
        }
        if (allocate)
        {
            // Refuses a campaign it cannot allocate, before anything is printed.
            SeedAllocation(campaignRuns, std::vector<double>(runs.size()), allocation);
        }
        if (estimate)
        {
            PrintEstimate(runs, calibration, jobs, machines, coresPerMachine, std::cout);
            if (allocate)
            {
                PrintAllocationEstimate(runs, campaignRuns, allocation, std::cout);
            }
            return 0; // runs nothing, writes nothing
        }
        CheckOneLine("--outDir", outDir); // before anything is written
        if (list || !slurm.empty())
        {
            CheckOneLine("--runner", runner);
        }
        else if (access(runner.c_str(), X_OK) != 0)
        {
            throw DdnnError("--runner=" + Printable(runner) + ": cannot execute it ("
                            + std::strerror(errno) + ")");
        }
        CheckWindows(runs, campaignFile);
        PrepareOutputDirectory("--outDir", outDir);
        LockOutputDirectory("--outDir", outDir);
        PrepareOutputDirectory("--outDir", outDir + "/runs"); // a link there is refused
        if (!allocate) // --allocate prepares the runs of each round only
        {
            Prepare(runs);
        }
        if (list || !slurm.empty())
        {
            std::vector<std::string> lines;
            size_t later = 0; // runs whose case reference is not finished yet
            for (const Run& run : runs)
            {
                if (!Finished(run))
                {
                    if (run.after >= 0 && !Finished(runs[run.after]))
                    {
                        ++later;
                        continue;
                    }
                    lines.push_back(ShellLine(runner, run));
                }
            }
            if (later > 0)
            {
                std::cerr << "campaign: " << later
                          << " runs read the outputs of runs not finished yet (a case:NAME "
                             "value) and are left out; list them again once those are done"
                          << std::endl;
            }
            if (!slurm.empty())
            {
                WriteSlurmArray(slurm, campaignFile, lines);
                std::cerr << "campaign: " << lines.size() << " runs in " << slurm
                          << ".runs; submit them with: sbatch " << slurm << std::endl;
            }
            for (const std::string& line : list ? lines : std::vector<std::string>())
            {
                std::cout << line << "\n";
            }
            return 0;
        }
        // After the lock: a second runner says only that the first one holds the folder.
        PrintEstimate(runs, calibration, jobs, machines, coresPerMachine, std::cerr);
        RunTotals totals;
        std::vector<Run> reported = runs; // the runs the report reads
        if (allocate)
        {
            PrintAllocationEstimate(runs, campaignRuns, allocation, std::cerr);
            std::vector<double> estimates;
            for (const Run& run : runs)
            {
                estimates.push_back(run.estimateS);
            }
            SeedAllocation seeds(campaignRuns, estimates, allocation);
            std::vector<size_t> given;
            while (seeds.Open() && totals.failed.empty())
            {
                given = seeds.Given();
                reported.clear();
                std::map<int, int> position; // a run's index in `runs` -> in `reported`
                for (size_t r : given)
                {
                    position[static_cast<int>(r)] = static_cast<int>(reported.size());
                    reported.push_back(runs[r]);
                }
                for (Run& run : reported)
                {
                    // A case reference names a run of the same cell and seed: given with it.
                    run.after = run.after < 0 ? -1 : position.at(run.after);
                }
                Prepare(reported);
                const RunTotals round = RunAll(reported, runner, jobs);
                for (size_t r : given)
                {
                    if (auto cpu = round.cpuByRun.find(runs[r].name); cpu != round.cpuByRun.end())
                    {
                        seeds.AddCpu(r, cpu->second);
                    }
                }
                totals.Add(round);
                if (round.failed.empty())
                {
                    seeds.Judge(campaignRuns);
                }
            }
            if (totals.failed.empty())
            {
                seeds.Write(outDir, std::cerr);
            }
        }
        else
        {
            totals = RunAll(runs, runner, jobs);
        }
        if (totals.ran > 0)
        {
            char line[256];
            std::snprintf(line,
                          sizeof line,
                          "campaign: %zu runs: estimated %.4g CPU-s, actual %.4g CPU-s (%.2f x); "
                          "wall %s on %u cores",
                          totals.ran,
                          totals.estimateS,
                          totals.cpuS,
                          totals.cpuS / std::max(totals.estimateS, 1e-9),
                          Duration(totals.wallS).c_str(),
                          jobs);
            std::cerr << line << std::endl;
        }
        const std::vector<std::string>& failed = totals.failed;
        if (!failed.empty())
        {
            throw DdnnError(std::to_string(failed.size())
                            + " run(s) failed; see their log.txt; start the campaign again to "
                              "redo them");
        }
        if (report)
        {
            std::vector<CampaignRun> finished;
            for (const Run& run : reported)
            {
                finished.push_back({run.name, run.dir, run.scenario, run.cases, run.point});
            }
            WriteCampaignReport(finished, outDir, options);
            std::cerr << "campaign: report in " << outDir << "/summary.csv and " << outDir
                      << "/report/" << std::endl;
        }
    }
    catch (...)
    {
        return ReportFailure("ddnn-campaign");
    }
    return 0;
}
