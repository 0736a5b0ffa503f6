/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Campaign runner: expands a campaign file (a base scenario and <vary>
 * dimensions) into runs, runs them in parallel on the local cores with
 * ddnn-datacenter, and renders the campaign's report.
 *
 *   ./ddnn-campaign --campaign=data/scenarios/thesis-grid.xml --outDir=out/grid --jobs=2
 *
 * Every run has its own folder, outDir/runs/NAME, with its resolved
 * scenario.xml, log.txt and CSV files. A run is finished when its summary.csv
 * exists (written last, atomically): finished runs are skipped, so a killed
 * campaign is resumed by starting it again, and a killed run is redone, never
 * half-counted. --list prints the command of every unfinished run instead, one
 * per line, for GNU parallel or a SLURM job array (see the README).
 */

#include "ns3/core-module.h"
#include "ns3/ddnn-module.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace ns3;

namespace
{

struct Run
{
    std::string name;
    std::string dir;
    DatacenterScenario scenario;
};

bool
Exists(const std::string& path)
{
    return access(path.c_str(), F_OK) == 0;
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

std::vector<Run>
ExpandCampaign(const std::string& file, const std::string& outDir)
{
    ddnn_campaign* campaign = nullptr;
    ddnn_diag diag{};
    std::string schema = DdnnDataPath("ddnn-scenario.xsd");
    if (ddnn_campaign_read_file(&campaign, file.c_str(), schema.c_str(), &diag) != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, file.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    std::vector<Run> runs;
    for (size_t i = 0; i < ddnn_campaign_size(campaign); ++i)
    {
        ddnn_scenario core;
        char name[256];
        if (ddnn_campaign_point(campaign, i, schema.c_str(), &core, name, sizeof name, &diag)
            != DDNN_OK)
        {
            char line[600];
            ddnn_diag_format(&diag, file.c_str(), line, sizeof line);
            ddnn_campaign_free(campaign);
            throw DdnnError(line);
        }
        Run run;
        run.name = name;
        run.dir = outDir + "/runs/" + name;
        ApplyCoreScenario(core, file, run.scenario);
        run.scenario.outDir = run.dir;
        runs.push_back(run);
    }
    ddnn_campaign_free(campaign);
    return runs;
}

std::vector<std::string>
Command(const std::string& runner, const Run& run)
{
    return {runner,
            "--scenario=" + run.dir + "/scenario.xml",
            "--outDir=" + run.dir,
            "--progress=never"};
}

pid_t
Spawn(const std::vector<std::string>& command, const std::string& log)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(
        &actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    std::vector<char*> argv;
    for (const std::string& arg : command)
    {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
    {
        throw DdnnError("cannot start " + command[0] + ": " + std::strerror(rc));
    }
    return pid;
}

/** Runs the unfinished runs, `jobs` at a time; returns the names of those that failed. */
std::vector<std::string>
RunAll(const std::vector<Run>& runs, const std::string& runner, uint32_t jobs)
{
    std::vector<const Run*> pending;
    for (const Run& run : runs)
    {
        if (!Exists(run.dir + "/summary.csv"))
        {
            pending.push_back(&run);
        }
    }
    const size_t total = runs.size();
    size_t done = total - pending.size();
    std::cerr << "campaign: " << total << " runs, " << done << " already finished, "
              << pending.size() << " to run on " << jobs << " cores" << std::endl;

    std::map<pid_t, const Run*> running;
    std::vector<std::string> failed;
    size_t next = 0;
    size_t finishedHere = 0;
    auto start = std::chrono::steady_clock::now();
    while (next < pending.size() || !running.empty())
    {
        while (next < pending.size() && running.size() < jobs)
        {
            const Run* run = pending[next++];
            running[Spawn(Command(runner, *run), run->dir + "/log.txt")] = run;
        }
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            throw DdnnError(std::string("waitpid: ") + std::strerror(errno));
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        const Run* run = it->second;
        running.erase(it);
        ++finishedHere;
        bool ok
            = WIFEXITED(status) && WEXITSTATUS(status) == 0 && Exists(run->dir + "/summary.csv");
        if (ok)
        {
            ++done;
        }
        else
        {
            failed.push_back(run->name);
            std::cerr << "\ncampaign: run " << run->name
                      << " failed: " << LastLine(run->dir + "/log.txt") << std::endl;
        }
        double wall
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        size_t left = pending.size() - finishedHere;
        double eta = wall / finishedHere * left / std::min<size_t>(jobs, std::max<size_t>(left, 1));
        std::cerr << "\rcampaign: " << done << "/" << total << " runs done";
        if (!failed.empty())
        {
            std::cerr << " (" << failed.size() << " failed)";
        }
        std::cerr << ", " << running.size() << " running, about " << Duration(left ? eta : 0)
                  << " left   " << std::flush;
    }
    std::cerr << std::endl;
    return failed;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string campaignFile;
    std::string outDir = "ddnn-campaign-output";
    uint32_t jobs = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    bool list = false;
    bool report = true;
    std::string runner = Sibling(argv[0], "ddnn-datacenter");
    CommandLine cmd(__FILE__);
    cmd.AddValue(
        "campaign", "campaign XML file (a <scenario> and <vary> dimensions)", campaignFile);
    cmd.AddValue("outDir", "campaign folder: runs/NAME per run, summary.csv, report/", outDir);
    cmd.AddValue("jobs", "runs at a time (default: the number of cores)", jobs);
    cmd.AddValue("list", "print the commands of the unfinished runs and stop", list);
    cmd.AddValue("report", "write summary.csv and the plots once every run is finished", report);
    cmd.AddValue("runner", "the ddnn-datacenter program", runner);
    cmd.Parse(argc, argv);

    try
    {
        if (campaignFile.empty())
        {
            throw DdnnError("--campaign: give the campaign file");
        }
        if (!Exists(campaignFile) && Exists(DdnnDataPath(campaignFile)))
        {
            campaignFile = DdnnDataPath(campaignFile); // e.g. scenarios/thesis-grid.xml
        }
        if (jobs < 1)
        {
            throw DdnnError("--jobs: expected at least 1");
        }
        std::vector<Run> runs = ExpandCampaign(campaignFile, outDir);
        for (const Run& run : runs)
        {
            if (!Exists(run.dir + "/summary.csv"))
            {
                PrepareOutputDirectory("--outDir", run.dir);
                WriteScenarioFile(run.scenario, run.dir + "/scenario.xml");
            }
        }
        if (list)
        {
            for (const Run& run : runs)
            {
                if (!Exists(run.dir + "/summary.csv"))
                {
                    for (const std::string& arg : Command(runner, run))
                    {
                        std::cout << arg << " ";
                    }
                    std::cout << "> " << run.dir << "/log.txt 2>&1\n";
                }
            }
            return 0;
        }
        std::vector<std::string> failed = RunAll(runs, runner, jobs);
        if (!failed.empty())
        {
            throw DdnnError(std::to_string(failed.size())
                            + " run(s) failed; see their log.txt; start the campaign again to "
                              "redo them");
        }
        if (report)
        {
            std::vector<CampaignRun> finished;
            for (const Run& run : runs)
            {
                finished.push_back({run.name, run.dir, run.scenario});
            }
            WriteCampaignReport(finished, outDir);
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
