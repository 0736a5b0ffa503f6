/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DATA_PATH_H
#define DATA_PATH_H

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Full path of a file shipped in ddnn's data/ folder.
 *
 * Looks in $DDNN_DATA_DIR when set (an override), then where `cmake --install`
 * put the data files, found relative to the installed library itself (PREFIX/share/ddnn/data
 * beside PREFIX/lib), then in the source tree the module was built from (a build not
 * installed, or inside an ns-3 tree). An installed library never needs its build tree or clone.
 *
 * \param name file name inside data/, e.g. "thesis-default-profile.csv"
 * \return the first existing candidate, or the installed (else source-tree) path when none
 *         exists
 */
std::string DdnnDataPath(const std::string& name);

} // namespace ns3

#endif /* DATA_PATH_H */
