/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-manifest.h"

#include "ns3/atomic-file.h"

#include "ddnn-manifest.h"
#include "ns3/ddnn-csv.h"
#include "ns3/ddnn-file.h"
#include "ns3/ddnn-version.h"
#include "ns3/one-line-error.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <unistd.h>
#include <vector>

// The build writes the sources' revision (tools/source-revision.cmake); a build without it
// (waf) says so.
#if __has_include("ddnn-source-revision.h")
#include "ddnn-source-revision.h"
#else
#define DDNN_SOURCE_REVISION "revision not recorded by this build"
#endif

namespace ns3
{

std::string
BuiltBy()
{
    std::string text = "ddnn " DDNN_VERSION_STRING " (" DDNN_SOURCE_REVISION ")";
#ifdef DDNN_NS3_VERSION_MINOR
    text += " on ns-3." + std::to_string(DDNN_NS3_VERSION_MINOR);
#endif
    return text;
}

namespace
{

const char* const kManifest = "MANIFEST";

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

/**
 * The outputs under DIR a MANIFEST lists, relative to DIR and sorted: every regular file,
 * but for the MANIFEST itself, log.txt, hidden files and half-written ones (.tmp). Symbolic
 * links are not followed: a run's outputs are files it wrote, never something elsewhere.
 */
std::vector<std::string>
ListOutputs(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
    {
        const std::string name = fs::relative(entry.path(), dir).string();
        const std::string leaf = entry.path().filename().string();
        if (!entry.is_symlink() && entry.is_regular_file() && name != kManifest && name != "log.txt"
            && leaf[0] != '.' && leaf.find(".tmp") == std::string::npos)
        {
            files.push_back(name);
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

void
WriteOutputManifest(const std::string& dir)
{
    const std::vector<std::string> files = ListOutputs(dir);
    AtomicFile manifest(dir + "/" + kManifest);
    manifest.Out() << "# size fnv1a64 path: the outputs of a complete run of " << BuiltBy() << "\n";
    for (const std::string& name : files)
    {
        uint64_t sum = 0;
        uint64_t size = 0;
        if (!ddnn_manifest_path_is_inside(name.c_str()))
        {
            throw DdnnError(dir + ": the output file name '" + name
                            + "' cannot be listed in a MANIFEST (a control character)");
        }
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
    const std::string path = dir + "/" + kManifest;
    struct stat info
    {
    };
    if (lstat(path.c_str(), &info) != 0)
    {
        why = "no MANIFEST";
        return false;
    }
    char* text = nullptr;
    size_t len = 0;
    ddnn_diag diag{};
    ddnn_manifest manifest{};
    if (!S_ISREG(info.st_mode)
        || ddnn_read_file(path.c_str(), DDNN_MANIFEST_MAX_BYTES, &text, &len, &diag) != DDNN_OK
        || ddnn_manifest_parse(&manifest, text, len, &diag) != DDNN_OK)
    {
        std::free(text);
        char line[400];
        ddnn_diag_format(&diag, "MANIFEST", line, sizeof line);
        why = S_ISREG(info.st_mode) ? std::string("MANIFEST is damaged: ") + line
                                    : "MANIFEST is not a regular file";
        return false;
    }
    std::free(text);
    std::unique_ptr<ddnn_manifest, decltype(&ddnn_manifest_free)> owned(&manifest,
                                                                        &ddnn_manifest_free);
    // Both ways: every file listed is an output here, and every output here is listed (an
    // output edited and struck from the MANIFEST must not pass).
    std::vector<std::string> outputs;
    try
    {
        outputs = ListOutputs(dir);
    }
    catch (const std::filesystem::filesystem_error& e)
    {
        why = dir + ": cannot list the run folder: " + e.code().message();
        return false;
    }
    std::set<std::string> listed;
    for (size_t i = 0; i < manifest.count; ++i)
    {
        const ddnn_manifest_entry& e = manifest.entries[i];
        listed.insert(e.path);
        if (!std::binary_search(outputs.begin(), outputs.end(), std::string(e.path)))
        {
            why = std::string(e.path) + " is missing";
            return false;
        }
        uint64_t actualSum = 0;
        uint64_t actualSize = 0;
        if (!Checksum(dir + "/" + e.path, actualSum, actualSize))
        {
            why = std::string(e.path) + " cannot be read";
            return false;
        }
        if (actualSize != e.size || actualSum != e.checksum)
        {
            why = std::string(e.path) + " differs from the MANIFEST";
            return false;
        }
    }
    for (const std::string& name : outputs)
    {
        if (!listed.count(name))
        {
            why = name + " is not in the MANIFEST";
            return false;
        }
    }
    return true;
}

} // namespace ns3
