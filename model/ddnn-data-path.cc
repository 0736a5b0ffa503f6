/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ddnn-data-path.h"

#include <cstdlib>
#include <fstream>

#ifndef DDNN_SOURCE_DATA_DIR
#define DDNN_SOURCE_DATA_DIR "data"
#endif
#ifndef DDNN_INSTALL_DATA_DIR
#define DDNN_INSTALL_DATA_DIR DDNN_SOURCE_DATA_DIR
#endif

namespace ns3
{

std::string
DdnnDataPath(const std::string& name)
{
    const char* fromEnvironment = std::getenv("DDNN_DATA_DIR");
    for (const char* dir : {fromEnvironment, DDNN_SOURCE_DATA_DIR, DDNN_INSTALL_DATA_DIR})
    {
        if (dir && *dir && std::ifstream(std::string(dir) + "/" + name).good())
        {
            return std::string(dir) + "/" + name;
        }
    }
    return std::string(DDNN_SOURCE_DATA_DIR) + "/" + name;
}

} // namespace ns3
