/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-file.h"

#include "ns3/ddnn-file.h"
#include "ns3/one-line-error.h"

#include <cstdlib>
#include <memory>
#include <sys/stat.h>

namespace ns3
{

std::string
ReadInputFile(const std::string& path, size_t maxBytes, const std::string& what)
{
    char* text = nullptr;
    size_t len = 0;
    ddnn_diag diag{};
    if (ddnn_read_file(path.c_str(), maxBytes, &text, &len, &diag) != DDNN_OK)
    {
        const std::string cannotOpen = "cannot open: ";
        std::string why = diag.message;
        if (!what.empty() && why.compare(0, cannotOpen.size(), cannotOpen) == 0)
        {
            why = "cannot open " + what + ": " + why.substr(cannotOpen.size());
        }
        else if (!what.empty())
        {
            why = what + ": " + why;
        }
        throw DdnnError(path + ": " + why);
    }
    std::unique_ptr<char, decltype(&std::free)> owned(text, &std::free);
    return std::string(text, len);
}

bool
PathExists(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

} // namespace ns3
