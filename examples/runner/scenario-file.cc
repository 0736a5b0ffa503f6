/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-file.h"

#include "input-file.h"
#include "ns3-defaults.h"
#include "program-main.h"

#include "ddnn-scenario-params.h"
#include "ddnn-scenario.h"
#include "ns3/atomic-file.h"
#include "ns3/data-path.h"
#include "ns3/one-line-error.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace ns3
{

namespace
{

/** An existing relative path made absolute, so a written-back scenario works from anywhere. */
void
MakeAbsolute(char* field, size_t size)
{
    if (field[0] == '\0' || field[0] == '/')
    {
        return;
    }
    char* resolved = realpath(field, nullptr);
    if (!resolved)
    {
        return;
    }
    const std::string absolute = resolved;
    std::free(resolved);
    if (absolute.size() < size)
    {
        std::snprintf(field, size, "%s", absolute.c_str());
    }
}

/** The folder a scenario file's relative paths start from; "": the command line's, the
 * working directory. */
std::string
FolderOf(const std::string& scenarioPath)
{
    if (scenarioPath.empty())
    {
        char cwd[4096];
        return getcwd(cwd, sizeof cwd) ? cwd : ".";
    }
    const size_t slash = scenarioPath.rfind('/');
    return slash == std::string::npos ? "." : scenarioPath.substr(0, slash);
}

/** Reads `path` (or ddnn's data file of that name) into `values`; returns the path read. */
std::string
ReadScenarioFile(const std::string& given, ddnn_scenario& values)
{
    // A name that is not a file here may be one of ddnn's, e.g. scenarios/thesis-defaults.xml.
    std::string path = given;
    if (!PathExists(path) && PathExists(DdnnDataPath(path)))
    {
        path = DdnnDataPath(path);
    }
    ddnn_diag diag{};
    if (ddnn_scenario_read_file(&values, path.c_str(), &diag) != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, path.c_str(), line, sizeof line);
        throw DdnnError(line);
    }
    return path;
}

} // namespace

std::string
LoadScenarioFile(const std::string& given, Scenario& scenario)
{
    ddnn_scenario values = scenario.values;
    const std::string path = ReadScenarioFile(given, values);
    SetScenario(scenario, values, path);
    return path;
}

void
SetScenario(Scenario& scenario, const ddnn_scenario& values, const std::string& scenarioPath)
{
    scenario.values = values;
    scenario.ResolvePaths(FolderOf(scenarioPath));
}

void
WriteScenarioFile(const Scenario& scenario, const std::string& path)
{
    scenario.CheckRanges(); // every value one a scenario file can hold (no control characters)
    ddnn_scenario x = scenario.values;
    Scenario::ForEachPath(
        x, [](const std::string&, char* field, size_t size) { MakeAbsolute(field, size); });
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

ScenarioArguments::ScenarioArguments(CommandLine& cmd,
                                     const std::vector<std::string>& accepted,
                                     const ddnn_scenario* defaults)
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
        char shown[DDNN_PATH_MAX + 32];
        text = defaults && ddnn_scenario_format_param(defaults, p, shown, sizeof shown) == DDNN_OK
                   ? shown
                   : ddnn_param_default(p);
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
AddProgramOptions(CommandLine& cmd, Scenario& scenario, bool compare)
{
    AddOption(cmd, "outDir", "folder for the CSV files", scenario.outDir);
    AddOption(cmd,
              "progress",
              "progress on stderr: auto (when a terminal), always or never",
              scenario.progress);
    if (compare)
    {
        AddOption(cmd,
                  "compare",
                  "run at same and at low priority with the same flows",
                  scenario.compare);
    }
}

void
ParseArguments(const std::string& program,
               CommandLine& cmd,
               int argc,
               char* argv[],
               Scenario& scenario,
               const std::vector<std::string>& accepted)
{
    std::string file;
    AddOption(cmd, "scenario", "scenario XML file; the other arguments override it", file);
    ScenarioArguments arguments(cmd, accepted);
    // ns-3's parser takes no empty value ("--schedule="): those are set here, after it.
    std::vector<char*> rest = arguments.TakeEmpty(argc, argv);
    ParseCommandLine(cmd, static_cast<int>(rest.size()), rest.data(), program);
    // The program's values, then the file's, then the command line's.
    ddnn_scenario x = scenario.values;
    x.rng_run = RngSeedManager::GetRun(); // ns-3's own default, or NS_GLOBAL_VALUE's
    if (!file.empty())
    {
        // The file's relative paths start from its folder, the command line's from the
        // working directory (SetScenario below).
        const std::string path = ReadScenarioFile(file, x);
        Scenario fromFile;
        SetScenario(fromFile, x, path);
        x = fromFile.values;
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
    SetScenario(scenario, x, "");
    // Each default named by where it was given: the command line's override the file's.
    const Ns3Defaults onCommandLine = Ns3DefaultsOnCommandLine(argc, argv);
    for (const auto& entry : Ns3DefaultsOf(x))
    {
        const bool given = std::any_of(onCommandLine.begin(),
                                       onCommandLine.end(),
                                       [&](const auto& c) { return c.first == entry.first; });
        ApplyNs3Defaults({entry}, given ? "the command line" : file);
    }
}

} // namespace ns3
