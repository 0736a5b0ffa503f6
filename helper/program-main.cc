/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "program-main.h"

#include "ns3/ddnn-exception.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>

namespace ns3
{

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
    std::cerr << program << ": error: " << message << std::endl;
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

} // namespace

void
ParseCommandLine(CommandLine& cmd, int argc, char* argv[], const std::string& program)
{
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
    std::filesystem::create_directories(path, ec);
    if (ec || !std::filesystem::is_directory(path, ec))
    {
        fail("cannot create the folder (" + (ec ? ec.message() : "a file of that name exists")
             + ")");
    }
    const std::string probe = path + "/.ddnn-write-check";
    {
        std::ofstream out(probe);
        if (!out || !(out << "ok\n") || !out.flush())
        {
            fail("cannot write files in the folder");
        }
    }
    std::filesystem::remove(probe, ec);
}

} // namespace ns3
