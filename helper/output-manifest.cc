/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-manifest.h"

#include "atomic-file.h"
#include "input-file.h"

#include "ns3/ddnn-exception.h"
#include "ns3/ddnn-file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

const char* const kManifest = "MANIFEST";

/** A MANIFEST lists the run's files, a line each: far below this. */
constexpr size_t kManifestMaxBytes = 16 * 1024 * 1024;

/**
 * FNV-1a, 64 bits, over the file's bytes: cheap, and any change of content shows. Regular
 * files only (ddnn_open_input), of the size they had when opened: a FIFO or a device named
 * in a MANIFEST neither blocks nor streams forever.
 */
bool
Checksum(const std::string& path, uint64_t& sum, uint64_t& size)
{
    int fd = -1;
    uint64_t expected = 0;
    if (ddnn_open_input(path.c_str(), DDNN_FILE_ANY_SIZE, &fd, &expected, nullptr) != DDNN_OK)
    {
        return false;
    }
    sum = 1469598103934665603ULL;
    size = 0;
    char buffer[65536];
    ssize_t n = 0;
    while (size <= expected && (n = read(fd, buffer, sizeof buffer)) != 0)
    {
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0)
        {
            break;
        }
        for (ssize_t i = 0; i < n; ++i)
        {
            sum = (sum ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ULL;
        }
        size += static_cast<uint64_t>(n);
    }
    close(fd);
    return n >= 0;
}

} // namespace

void
WriteOutputManifest(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
    {
        const std::string name = fs::relative(entry.path(), dir).string();
        const std::string leaf = entry.path().filename().string();
        if (entry.is_regular_file() && name != kManifest && name != "log.txt" && leaf[0] != '.'
            && leaf.find(".tmp") == std::string::npos)
        {
            files.push_back(name);
        }
    }
    std::sort(files.begin(), files.end());
    AtomicFile manifest(dir + "/" + kManifest);
    manifest.Out() << "# size fnv1a64 path: the outputs of a complete run\n";
    for (const std::string& name : files)
    {
        uint64_t sum = 0;
        uint64_t size = 0;
        if (!Checksum(dir + "/" + name, sum, size))
        {
            throw DdnnError(dir + "/" + name + ": cannot read it back for the manifest");
        }
        manifest.Out() << size << " " << std::hex << sum << std::dec << " " << name << "\n";
    }
    manifest.Commit();
}

bool
VerifyOutputManifest(const std::string& dir, std::string& why)
{
    if (!PathExists(dir + "/" + kManifest))
    {
        why = "no MANIFEST";
        return false;
    }
    std::istringstream in;
    try
    {
        in.str(ReadInputFile(dir + "/" + kManifest, kManifestMaxBytes));
    }
    catch (const DdnnError& e)
    {
        why = e.what();
        return false;
    }
    std::string line;
    size_t listed = 0;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::istringstream fields(line);
        uint64_t size = 0;
        uint64_t sum = 0;
        std::string name;
        if (!(fields >> size >> std::hex >> sum >> std::dec)
            || !std::getline(fields >> std::ws, name))
        {
            why = "MANIFEST is damaged";
            return false;
        }
        uint64_t actualSum = 0;
        uint64_t actualSize = 0;
        if (!Checksum(dir + "/" + name, actualSum, actualSize))
        {
            why = name + " is missing";
            return false;
        }
        if (actualSize != size || actualSum != sum)
        {
            why = name + " differs from the MANIFEST";
            return false;
        }
        ++listed;
    }
    if (listed == 0)
    {
        why = "MANIFEST lists no file";
        return false;
    }
    return true;
}

} // namespace ns3
