/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INPUT_FILE_H
#define INPUT_FILE_H

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The whole text of the user's input file @p path, read the C core's one way
 * (ddnn_read_file: regular files only, a FIFO or a device refused at once, the size checked
 * against @p maxBytes before reading). Throws DdnnError "PATH: why" otherwise, or with
 * @p what (e.g. "the calibration table"), "PATH: cannot open WHAT: why" and "PATH: WHAT: why".
 */
std::string ReadInputFile(const std::string& path, size_t maxBytes, const std::string& what = "");

/**
 * \ingroup ddnn
 * \brief Whether @p path names an existing file or folder, without opening it (opening a
 * FIFO to see whether it exists would block).
 */
bool PathExists(const std::string& path);

} // namespace ns3

#endif /* INPUT_FILE_H */
