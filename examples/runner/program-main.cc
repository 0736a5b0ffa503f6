/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "program-main.h"

#include "../../model/ns3-compat.h"

#include "ddnn-scenario-params.h"
#include "distributed-run.h"
#include "fatal-error-line.h"
#include "ns3-defaults.h"
#include "random-variable-text.h"

#include "ns3/data-path.h"
#include "ns3/global-value.h"
#include "ns3/one-line-error.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * A module error names the ns-3 attribute it checked ("ns3::OraclePriority::ReferenceFile:
 * ..."; "(ns3::TrainingJob::AggregationSlotBytes)"); the user gave an option: each attribute
 * a table row sets is named by its option there (elsewhere it is what the user wrote).
 */
std::string
OptionsForAttributes(std::string message)
{
    for (size_t i = 0; i < ddnn_scenario_param_count(); ++i)
    {
        const ddnn_param* p = ddnn_scenario_param(i);
        const std::string attribute = p->sets ? p->sets : "";
        for (size_t at = message.find(attribute); !attribute.empty() && at != std::string::npos;
             at = message.find(attribute, at + 1))
        {
            const size_t end = at + attribute.size();
            const bool whole
                = (end == message.size() || !std::isalnum(static_cast<unsigned char>(message[end])))
                  && (at == 0 || message[at - 1] == '('); // as a module's message names it
            if (whole)
            {
                message.replace(at, attribute.size(), std::string("--") + p->flag);
            }
        }
    }
    return message;
}

} // namespace

int
ReportFailure(const std::string& program) noexcept
{
    std::string message;
    try
    {
        throw;
    }
    catch (const DdnnError& e)
    {
        message = e.what();
    }
    catch (const std::filesystem::filesystem_error& e)
    {
        message = e.path1().string() + ": " + e.code().message();
    }
    catch (const std::bad_alloc&)
    {
        message = "out of memory (the scenario asks for more than this machine has)";
    }
    catch (const std::exception& e)
    {
        message = std::string("unexpected failure: ") + e.what();
    }
    catch (...)
    {
        message = "unexpected failure of an unknown kind";
    }
    DistributedRun::ReportFailure(program + ": error: " + OptionsForAttributes(message));
    return 1;
}

namespace
{

/**
 * What ns-3's parser writes to std::cerr while ParseCommandLine runs: on a wrong option it
 * writes "Invalid command-line argument: --X=V" and its usage text, then calls std::exit(1),
 * so the one line is printed from an exit handler.
 */
std::ostringstream g_parserErrors;
std::streambuf* g_stderr = nullptr;
std::string g_program;

void
ReportParserError()
{
    if (!g_stderr)
    {
        return; // the parse is over
    }
    std::cerr.rdbuf(g_stderr);
    g_stderr = nullptr;
    std::string line = g_parserErrors.str();
    line = line.substr(0, line.find('\n'));
    if (line.empty())
    {
        return; // --help and the like: ns-3 printed what was asked and exits 0
    }
    if (line[0] == 'I')
    {
        line[0] = 'i'; // "invalid command-line argument: --X=V"
    }
    std::cerr << g_program << ": error: " << line << " (see --help)" << std::endl;
}

/** The text options of the program (AddOption), by name: ParseCommandLine takes them whole. */
std::map<std::string, std::string*> g_textOptions;

/** Ends the program the way every refused option does. */
[[noreturn]] void
Refuse(const std::string& program, const std::string& message)
{
    std::cerr << program << ": error: " << message << std::endl;
    std::exit(1);
}

/** "'V'", cut to 60 characters. */
std::string
Quoted(const std::string& value)
{
    return "'" + (value.size() > 60 ? value.substr(0, 60) + "..." : value) + "'";
}

bool
HasBlank(const std::string& value)
{
    for (unsigned char c : value)
    {
        if (std::isspace(c))
        {
            return true;
        }
    }
    return false;
}

/** The checker of ns-3's global value or attribute (ns3::Type::Attribute) `name`, or null. */
Ptr<const AttributeChecker>
Ns3CheckerOf(const std::string& name)
{
    for (auto i = GlobalValue::Begin(); i != GlobalValue::End(); ++i)
    {
        if ((*i)->GetName() == name)
        {
            return (*i)->GetChecker();
        }
    }
    const size_t colons = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (colons != std::string::npos && colons > 0
        && TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid)
        && tid.LookupAttributeByName(name.substr(colons + 2), &info))
    {
        return info.checker;
    }
    return nullptr;
}

/** What a checker accepts, for the message. */
std::string
Ns3Expects(Ptr<const AttributeChecker> checker)
{
    std::string expected = "a value of type " + checker->GetValueTypeName();
    if (checker->GetValueTypeName() == "ns3::TimeValue")
    {
        expected += " (a time such as 5ms)"; // ns-3 describes its range as +9.22337e+18ns:...
    }
    else if (checker->HasUnderlyingTypeInformation())
    {
        expected += " (" + checker->GetUnderlyingTypeInformation() + ")";
    }
    return expected;
}

/** Whether `value` names a constructible ns-3 type derived from `base`. */
bool
IsTypeOf(const std::string& value, TypeId base)
{
    TypeId tid;
    return TypeId::LookupByNameFailSafe(value, &tid) && tid.IsChildOf(base) && tid.HasConstructor();
}

/** The groups of ns-3's types (what --PrintGroups lists). */
std::set<std::string>
Ns3Groups()
{
    std::set<std::string> groups;
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        groups.insert(TypeId::GetRegistered(i).GetGroupName());
    }
    return groups;
}

/** Checks argv as the function's comment in program-main.h says, before ns-3 parses it. */
void
CheckArguments(int argc, char* argv[], const std::string& program)
{
    try
    {
        CheckDdnnDataDir(); // before any default names a data file
    }
    catch (const DdnnError& e)
    {
        Refuse(program, e.what());
    }
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t start = arg.find_first_not_of('-'); // ns-3 takes -x, --x and ---x alike
        if (start == 0 || start == std::string::npos)
        {
            continue; // not an option
        }
        const size_t equals = arg.find('=', start);
        const std::string name = arg.substr(start, equals - start);
        const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
        const std::string option = "--" + name;
        if (name == "PrintAttributes")
        {
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(value, &tid))
            {
                Refuse(program,
                       option
                           + ": expected an ns-3 type such as ns3::TcpSocket (see "
                             "--PrintTypeIds), got "
                           + Quoted(value));
            }
        }
        else if (name == "PrintGroup")
        {
            if (value.empty() || Ns3Groups().count(value) == 0)
            {
                Refuse(program,
                       option
                           + ": expected a group of ns-3 types such as Internet (see "
                             "--PrintGroups), got "
                           + Quoted(value));
            }
        }
        else if (name == "RngSeed")
        {
            Refuse(program,
                   option
                       + ": ddnn sets ns-3's seed from --seed (scenario <run seed>); "
                         "give --seed instead");
        }
        else if (name == "SimulatorImplementationType"
                 && !IsTypeOf(value, SimulatorImpl::GetTypeId()))
        {
            Refuse(program,
                   option
                       + ": expected an ns-3 simulator implementation such as "
                         "ns3::DefaultSimulatorImpl, got "
                       + Quoted(value));
        }
        else if (name == "SchedulerType" && !IsTypeOf(value, Scheduler::GetTypeId()))
        {
            Refuse(program,
                   option + ": expected an ns-3 scheduler such as ns3::MapScheduler, got "
                       + Quoted(value));
        }
        else if (g_textOptions.count(name) != 0)
        {
            continue; // taken whole after ns-3's parse
        }
        else if (const std::string refusal = OwnedAttributeRefusal(name, value); !refusal.empty())
        {
            Refuse(program, option + ": " + refusal); // as the row's own option says it
        }
        else if (Ptr<const AttributeChecker> checker = Ns3CheckerOf(name))
        {
            // ns-3 would end the program with an abort on text its parser cannot read.
            if (!IsValueText(checker, value))
            {
                Refuse(program,
                       option + ": expected " + Ns3Expects(checker) + ", got " + Quoted(value));
            }
        }
        else if (HasBlank(value))
        {
            Refuse(program, option + ": expected a value without blanks, got " + Quoted(value));
        }
    }
}

/** Gives each text option the whole of its last value on the command line, blanks included. */
void
TakeTextsWhole(int argc, char* argv[])
{
    for (const auto& [name, text] : g_textOptions)
    {
        for (int i = argc - 1; i > 0; --i)
        {
            const std::string arg = argv[i];
            const size_t start = arg.find_first_not_of('-');
            if (start != 0 && start != std::string::npos
                && arg.compare(start, name.size() + 1, name + "=") == 0)
            {
                *text = arg.substr(start + name.size() + 1);
                break;
            }
        }
    }
}

} // namespace

/** A text option's parser: the whole text, blanks included. */
static bool
StoreText(std::string* target, DDNN_COMMAND_LINE_TEXT text)
{
    *target = text;
    return true;
}

CommandLine
ProgramCommandLine([[maybe_unused]] const std::string& file)
{
#if DDNN_NS3_AT_LEAST(31)
    return CommandLine(file);
#else
    return CommandLine(); // ns-3.30's names no file
#endif
}

void
AddOption(CommandLine& cmd, const std::string& name, const std::string& help, std::string& value)
{
    g_textOptions[name] = &value;
    // Through a callback, so that --help shows the whole default: ns-3 reads the default of a
    // string variable with operator>>, which stops at the first blank ("1 1 1" as "1").
#if DDNN_NS3_AT_LEAST(31)
    cmd.AddValue(name, help, MakeBoundCallback(&StoreText, &value), value);
#else
    // ns-3.30's callback options show no default.
    cmd.AddValue(name, help, MakeBoundCallback(&StoreText, &value));
#endif
}

void
ParseCommandLine(CommandLine& cmd, int argc, char* argv[], const std::string& program)
{
    ReportFatalErrorsAsOneLine(program);
    CheckArguments(argc, argv, program);
    static const bool registered = std::atexit(&ReportParserError) == 0;
    g_program = program;
    g_parserErrors.str("");
    if (registered)
    {
        g_stderr = std::cerr.rdbuf(g_parserErrors.rdbuf());
    }
    cmd.Parse(argc, argv);
    if (g_stderr)
    {
        std::cerr.rdbuf(g_stderr); // parsed: whatever ns-3 wrote goes where it belongs
        g_stderr = nullptr;
        std::cerr << g_parserErrors.str();
    }
    TakeTextsWhole(argc, argv);
}

uint64_t
ParseWholeNumber(const std::string& option, const std::string& text, uint64_t min, uint64_t max)
{
    bool digits = !text.empty() && text.size() <= 19;
    for (char c : text)
    {
        digits = digits && c >= '0' && c <= '9';
    }
    const uint64_t value = digits ? std::stoull(text) : 0;
    if (!digits || value < min || value > max)
    {
        throw DdnnError(option + ": expected a whole number in [" + std::to_string(min) + ", "
                        + std::to_string(max) + "], got '" + text.substr(0, 60) + "'");
    }
    return value;
}

double
ParseNumber(const std::string& option, const std::string& text, double min, double max)
{
    char* end = nullptr;
    // Decimal only, as documented: strtod would also take "0x10", "inf" and "nan".
    const bool decimal
        = !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
    const double value = decimal ? std::strtod(text.c_str(), &end) : 0;
    if (!decimal || *end != '\0' || !std::isfinite(value) || value < min || value > max)
    {
        std::ostringstream os;
        os << option << ": expected a number in [" << min << ", " << max << "], got '"
           << text.substr(0, 60) << "'";
        throw DdnnError(os.str());
    }
    return value;
}

void
PrepareOutputDirectory(const std::string& option, const std::string& path)
{
    // Linux's PATH_MAX and NAME_MAX: longer names fail later, in the middle of writing.
    const size_t maxPath = 4096;
    const size_t maxName = 255;
    auto fail = [&](const std::string& why) {
        throw DdnnError(option + "=" + (path.size() > 80 ? path.substr(0, 80) + "..." : path) + ": "
                        + why);
    };
    if (path.empty())
    {
        fail("expected a folder for the outputs, got an empty name");
    }
    if (path.size() > maxPath)
    {
        fail("expected a path of at most 4096 bytes, got " + std::to_string(path.size()));
    }
    for (const auto& part : std::filesystem::path(path))
    {
        if (part.string().size() > maxName)
        {
            fail("expected folder names of at most 255 bytes, got one of "
                 + std::to_string(part.string().size()));
        }
    }
    std::error_code ec;
    // "LINK/" names what the link points to: the link itself is the name without the slashes.
    const std::string named = path.substr(0, std::max<size_t>(1, path.find_last_not_of('/') + 1));
    if (std::filesystem::is_symlink(named, ec))
    {
        fail("is a symbolic link: expected a folder of its own (ddnn writes nothing through a "
             "link)");
    }
    std::filesystem::create_directories(path, ec);
    if (ec || !std::filesystem::is_directory(path, ec))
    {
        fail("cannot create the folder (" + (ec ? ec.message() : "a file of that name exists")
             + ")");
    }
    // A file of the program's own naming (mkstemp: created exclusively, never through a link).
    std::string probe = path + "/.ddnn-write-check-XXXXXX";
    const int fd = mkstemp(probe.data());
    if (fd < 0 || write(fd, "ok\n", 3) != 3)
    {
        if (fd >= 0)
        {
            close(fd);
            std::filesystem::remove(probe, ec);
        }
        fail("cannot write files in the folder");
    }
    close(fd);
    std::filesystem::remove(probe, ec);
}

void
LockOutputDirectory(const std::string& option, const std::string& path)
{
    // Held until the process ends (the descriptor stays open; not inherited by the programs
    // it starts). A folder this process already holds is not locked twice.
    static std::set<std::string> held;
    std::error_code ec;
    const std::string canonical = std::filesystem::canonical(path, ec).string();
    if (ec || held.count(canonical))
    {
        return;
    }
    const std::string lock = path + "/.ddnn-lock";
    const int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        throw DdnnError(option + "=" + path + ": cannot take the folder's lock " + lock + ": "
                        + std::strerror(errno));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0)
    {
        const int cause = errno;
        char pid[32] = "";
        const ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        close(fd);
        throw DdnnError(option + "=" + path
                        + (cause == EWOULDBLOCK
                               ? ": another ddnn program (PID "
                                     + std::string(n > 0 ? pid : "unknown")
                                     + ") is writing into this folder; wait for it to end or give "
                                       "another "
                                     + option
                               : ": cannot lock " + lock + ": " + std::strerror(cause)));
    }
    const std::string me = std::to_string(getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, me.c_str(), me.size(), 0) < 0)
    {
        throw DdnnError(lock + ": cannot write the lock: " + std::strerror(errno));
    }
    held.insert(canonical);
}

} // namespace ns3
