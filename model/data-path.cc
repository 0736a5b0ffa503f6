/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "data-path.h"

#include "one-line-error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#ifndef DDNN_SOURCE_DATA_DIR
#define DDNN_SOURCE_DATA_DIR "data"
#endif

namespace ns3
{

namespace
{

/* The installed data folder, found from where this library itself was loaded: the install
 * puts the data at DDNN_DATA_DIR_FROM_LIBRARY (a path relative to the library's folder,
 * fixed at configure time), so a prefix chosen at install time or moved later still works. */
std::string
InstalledDataDir()
{
#ifdef DDNN_DATA_DIR_FROM_LIBRARY
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&DdnnDataPath), &info) && info.dli_fname)
    {
        std::string library(info.dli_fname);
        const size_t slash = library.rfind('/');
        if (slash != std::string::npos)
        {
            const std::string dir = library.substr(0, slash) + "/" + DDNN_DATA_DIR_FROM_LIBRARY;
            // PREFIX/share/ddnn/data rather than PREFIX/lib/../share/ddnn/data, when it exists.
            char* resolved = realpath(dir.c_str(), nullptr);
            const std::string shown = resolved ? resolved : dir;
            std::free(resolved);
            return shown;
        }
    }
#endif
    return "";
}

/* What is wrong with $DDNN_DATA_DIR's value, or "" when it is unset or names a folder. */
std::string
DataDirProblem(const char* value)
{
    struct stat info
    {
    };
    if (!value)
    {
        return "";
    }
    if (value[0] != '/')
    {
        return "expected an absolute path";
    }
    if (stat(value, &info) != 0)
    {
        return std::string("no such folder (") + std::strerror(errno) + ")";
    }
    return S_ISDIR(info.st_mode) ? "" : "not a folder";
}

} // namespace

void
CheckDdnnDataDir()
{
    const char* value = std::getenv("DDNN_DATA_DIR");
    const std::string problem = DataDirProblem(value);
    if (!problem.empty())
    {
        throw DdnnError(std::string("DDNN_DATA_DIR='") + value + "': " + problem
                        + " (ddnn's data folder, or unset for the one it was built or "
                          "installed with)");
    }
}

std::string
DdnnDataPath(const std::string& name)
{
    const char* fromEnvironment = std::getenv("DDNN_DATA_DIR");
    if (!DataDirProblem(fromEnvironment).empty())
    {
        fromEnvironment = nullptr; // CheckDdnnDataDir refuses it
    }
    const std::string installed = InstalledDataDir();
    for (const char* dir : {fromEnvironment, installed.c_str(), DDNN_SOURCE_DATA_DIR})
    {
        if (dir && *dir && std::ifstream(std::string(dir) + "/" + name).good())
        {
            return std::string(dir) + "/" + name;
        }
    }
    // None has it: name the folder the file was expected in (the installed one, if any).
    const bool isInstalled = !installed.empty() && access(installed.c_str(), F_OK) == 0;
    return (isInstalled ? installed : std::string(DDNN_SOURCE_DATA_DIR)) + "/" + name;
}

} // namespace ns3
