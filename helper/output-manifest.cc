/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-manifest.h"

#include "atomic-file.h"

#include "ns3/ddnn-exception.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

const char* const kManifest = "MANIFEST";

/** FNV-1a, 64 bits, over the file's bytes: cheap, and any change of content shows. */
bool
Checksum(const std::string& path, uint64_t& sum, uint64_t& size)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return false;
    }
    sum = 1469598103934665603ULL;
    size = 0;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
    {
        for (std::streamsize i = 0; i < in.gcount(); ++i)
        {
            sum = (sum ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ULL;
        }
        size += static_cast<uint64_t>(in.gcount());
    }
    return !in.bad();
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
    std::ifstream in(dir + "/" + kManifest);
    if (!in)
    {
        why = "no MANIFEST";
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
