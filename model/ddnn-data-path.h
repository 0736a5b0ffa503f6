/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_DATA_PATH_H
#define DDNN_DATA_PATH_H

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Full path of a file shipped in ddnn's data/ folder.
 *
 * Looks in $DDNN_DATA_DIR when set, then in the source tree the module was
 * built from, then where `cmake --install` put the data files.
 *
 * \param name file name inside data/, e.g. "thesis-default-profile.csv"
 * \return the first existing candidate, or the source-tree path when none exists
 */
std::string DdnnDataPath(const std::string& name);

} // namespace ns3

#endif /* DDNN_DATA_PATH_H */
