/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_FILE_H
#define SCENARIO_FILE_H

#include "scenario.h"

#include "ns3/command-line.h"

#include "ddnn-scenario.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Reads a scenario XML file (validated against the generated schema) into
 * `scenario`; values the file leaves out keep what it held. Relative profile, cdf and
 * schedule paths the file gives are looked up next to it, then in ddnn's data folder.
 * Returns the path read.
 *
 * A path that names no file is also looked up in ddnn's data folder (e.g.
 * scenarios/thesis-defaults.xml). Throws DdnnError naming the file, line and element or
 * attribute.
 */
std::string LoadScenarioFile(const std::string& path, Scenario& scenario);

/**
 * \ingroup ddnn
 * \brief Reads a core scenario (a campaign's run) into `scenario`, relative paths resolved
 * as LoadScenarioFile does next to `scenarioPath` ("": the command line's values, relative to
 * the working directory), else in ddnn's data folder.
 */
void SetScenario(Scenario& scenario, const ddnn_scenario& values, const std::string& scenarioPath);

/**
 * \ingroup ddnn
 * \brief Writes every value of `scenario` as a scenario file (paths absolute, doubles
 * exactly), so reading it back reproduces the run.
 */
void WriteScenarioFile(const Scenario& scenario, const std::string& path);

/** Whether the arguments set --name (as --name=value). */
bool CommandLineGives(int argc, char* argv[], const std::string& name);

/**
 * \ingroup ddnn
 * \brief The scenario's command-line options, registered from the core's parameter table:
 * --FLAG for each parameter of the accepted elements ("training") or parameters
 * ("run.seed"), read as text and set with the table's own parsing, so that a value outside
 * its type or range stops with "--FLAG: expected ..., got '...'" (no wrap of "-1", no
 * conversion of an unchecked double). --help shows each one's default: the table's, or with
 * `defaults` that record's value (a program whose own defaults differ, e.g. ddnn-bench's).
 */
class ScenarioArguments
{
  public:
    ScenarioArguments(CommandLine& cmd,
                      const std::vector<std::string>& accepted,
                      const ddnn_scenario* defaults = nullptr);
    /**
     * Before cmd.Parse(): takes the "--FLAG=" arguments (ns-3's parser refuses an empty
     * value with its whole help) for Apply(), and returns the others for cmd.Parse().
     */
    std::vector<char*> TakeEmpty(int argc, char* argv[]);
    /** After cmd.Parse(): sets on `core` every option the command line gave. */
    void Apply(int argc, char* argv[], ddnn_scenario& core) const;

  private:
    std::map<std::string, std::string> m_text; //!< by flag; std::map keeps addresses stable
};

/**
 * \ingroup ddnn
 * \brief Adds the program's own options of `scenario` (--outDir, --progress; with
 * `compare`, --compare) to cmd.
 */
void AddProgramOptions(CommandLine& cmd, Scenario& scenario, bool compare);

/**
 * \ingroup ddnn
 * \brief Parses program `program`'s command line into `scenario` (see ParseCommandLine): the
 * program's own options (already in `cmd`), --scenario=FILE, and the scenario parameters of the
 * accepted elements. Values come from the program's defaults, then the file, then the command line;
 * --rcp given without --computeMs sets the compute time instead of the file's compute-ms.
 */
void ParseArguments(const std::string& program,
                    CommandLine& cmd,
                    int argc,
                    char* argv[],
                    Scenario& scenario,
                    const std::vector<std::string>& accepted);

} // namespace ns3

#endif /* SCENARIO_FILE_H */
