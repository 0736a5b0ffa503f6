/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRAM_MAIN_H
#define PROGRAM_MAIN_H

#include "ns3/command-line.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief For a program's main(): inside `catch (...)`, prints the exception in flight as one
 * line "PROGRAM: error: ..." on stderr and returns 1, whatever it is (DdnnError, a file-system
 * error, out of memory, any std::exception or something else), so that no input ends a
 * ddnn program with an uncaught exception, an abort or a core dump.
 */
int ReportFailure(const std::string& program) noexcept;

/**
 * \ingroup ddnn
 * \brief The command line of the program whose source is @p file (__FILE__): its --help
 * names the program's file, as `CommandLine cmd(__FILE__)` does from ns-3.31 on.
 */
CommandLine ProgramCommandLine(const std::string& file);

/**
 * \ingroup ddnn
 * \brief cmd.AddValue for a program's option of any type (what ns-3's CommandLine does).
 */
template<typename T>
void
AddOption(CommandLine& cmd, const std::string& name, const std::string& help, T& value)
{
    cmd.AddValue(name, help, value);
}

/**
 * \ingroup ddnn
 * \brief cmd.AddValue for a text option, which ParseCommandLine then takes whole: ns-3's
 * parser stops a text value at its first blank (--outDir="my results" would give "my").
 */
void AddOption(CommandLine& cmd,
               const std::string& name,
               const std::string& help,
               std::string& value);

/**
 * \ingroup ddnn
 * \brief cmd.Parse(argc, argv), except that a wrong option (unknown, or not of its type)
 * ends the program with one line "PROGRAM: error: invalid command-line argument: --X=V (see
 * --help)" and exit 1 instead of ns-3's whole usage text. --help and --Print* are ns-3's.
 *
 * Before ns-3 sees them, ns-3's own options are checked, as ns-3 would end the program with
 * an abort on them: a value an attribute (--ns3::Type::Attribute=V) or a global value
 * (--RngRun=V) cannot parse, a simulator or scheduler type that does not exist, an unknown
 * type for --PrintAttributes or group for --PrintGroup; --RngSeed is refused (--seed sets
 * the seed). Text options (AddOption) are taken whole, blanks included; a value with a blank
 * for any other option is refused. Each of these ends the program with one line naming the
 * option ("PROGRAM: error: --X: expected ..., got 'V'") and exit 1.
 */
void ParseCommandLine(CommandLine& cmd, int argc, char* argv[], const std::string& program);

/**
 * \ingroup ddnn
 * \brief Creates the folder @p path (with its parents) for a program's outputs and checks
 * that files can be written in it. Throws DdnnError naming @p option (what the user typed,
 * e.g. "--outDir"), the path and the reason: empty, too long (over 4096 bytes, or a name over
 * 255), not creatable or not writable.
 */
void PrepareOutputDirectory(const std::string& option, const std::string& path);

/**
 * \ingroup ddnn
 * \brief Takes an output folder (made by PrepareOutputDirectory) for this process until it
 * ends: a lock in the folder (.ddnn-lock, flock), so that a second program writing into the
 * same folder at once stops with one line naming the option; the first is undisturbed.
 */
void LockOutputDirectory(const std::string& option, const std::string& path);

/**
 * \ingroup ddnn
 * \brief A program option's whole number, digits only, in [min, max]: "-1" is refused, not
 * wrapped. Throws DdnnError "OPTION: expected a whole number in [min, max], got 'TEXT'".
 */
uint64_t ParseWholeNumber(const std::string& option,
                          const std::string& text,
                          uint64_t min,
                          uint64_t max);

/**
 * \ingroup ddnn
 * \brief A program option's finite number in [min, max]. Throws DdnnError
 * "OPTION: expected a number in [min, max], got 'TEXT'".
 */
double ParseNumber(const std::string& option, const std::string& text, double min, double max);

} // namespace ns3

#endif /* PROGRAM_MAIN_H */
