/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATOMIC_FILE_H
#define ATOMIC_FILE_H

#include <fstream>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief An output file that appears complete or not at all: written under a
 * temporary name of its own choosing beside PATH (PATH.tmp-XXXXXX, created
 * exclusively: a file or link already there is never written through) and
 * renamed to PATH by Commit(), which replaces whatever PATH was (a link
 * included) without following it. A run that fails before Commit() leaves no
 * file that looks finished.
 */
class AtomicFile
{
  public:
    /** Creates the temporary file; throws DdnnError when it cannot. */
    explicit AtomicFile(const std::string& path);

    /** The stream to write to (precision 12 for numbers). */
    std::ofstream& Out();

    /** Closes and renames into place; throws DdnnError when writing failed. */
    void Commit();

    /** Removes the temporary file unless committed. */
    ~AtomicFile();

    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

  private:
    std::string m_path;
    std::string m_temporary; //!< "" once committed
    std::ofstream m_out;
};

} // namespace ns3

#endif /* ATOMIC_FILE_H */
