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
 * Looks in $DDNN_DATA_DIR when it names a folder by its absolute path (an override; any
 * other value is skipped here and refused by CheckDdnnDataDir), then where `cmake --install`
 * put the data files, found relative to the installed library itself (PREFIX/share/ddnn/data
 * beside PREFIX/lib), then in the source tree the module was built from (a build not
 * installed, or inside an ns-3 tree). An installed library never needs its build tree or clone.
 *
 * \param name file name inside data/, e.g. "thesis-default-profile.csv"
 * \return the first existing candidate, or the installed (else source-tree) path when none
 *         exists
 */
std::string DdnnDataPath(const std::string& name);

/**
 * \ingroup ddnn
 * \brief Throws DdnnError, in one line naming the value, when $DDNN_DATA_DIR is set but is not
 * the absolute path of an existing folder (DdnnDataPath would skip it). A program calls it
 * before it reads anything; it does not throw itself because a TypeId's default value calls it
 * while static objects are built.
 */
void CheckDdnnDataDir();

} // namespace ns3

#endif /* DATA_PATH_H */
