/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_FILE_H
#define SCENARIO_FILE_H

#include "datacenter-scenario.h"

#include "ns3/ddnn-scenario.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Reads a scenario XML file (validated against data/ddnn-scenario.xsd)
 * into `scenario`; values the file leaves out take the thesis defaults.
 *
 * A path that names no file is also looked up in ddnn's data folder (e.g.
 * scenarios/thesis-defaults.xml). Relative profile, cdf and schedule paths
 * are looked up next to the file, then in ddnn's data folder. Throws DdnnError naming the file,
 * line and element or attribute.
 */
void LoadScenarioFile(const std::string& path, DatacenterScenario& scenario);

/**
 * \ingroup ddnn
 * \brief Copies the values of a core scenario into `scenario`, resolving
 * relative paths against `scenarioPath` (see LoadScenarioFile; "" for the data
 * folder only).
 */
void ApplyCoreScenario(const ddnn_scenario& core,
                       const std::string& scenarioPath,
                       DatacenterScenario& scenario);

/**
 * \ingroup ddnn
 * \brief Writes every value of `scenario` as a scenario file (paths as given,
 * doubles exactly), so reading it back reproduces the run.
 */
void WriteScenarioFile(const DatacenterScenario& scenario, const std::string& path);

/**
 * \ingroup ddnn
 * \brief The value of --scenario=FILE among the arguments, or "".
 *
 * Examples read the file before parsing the command line, so the other
 * arguments override it.
 */
std::string FindScenarioArgument(int argc, char* argv[]);

/** Whether the arguments set --name (as --name=value). */
bool CommandLineGives(int argc, char* argv[], const std::string& name);

/**
 * \ingroup ddnn
 * \brief Parses the command line over values a scenario file may have set:
 * accepts --scenario (read before, see FindScenarioArgument), and lets --rcp
 * given without --computeMs set the compute time instead of the file's
 * compute-ms. `cmd` holds the program's own arguments.
 */
void ParseArguments(CommandLine& cmd, int argc, char* argv[], TrainingScenario& scenario);

} // namespace ns3

#endif /* SCENARIO_FILE_H */
