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
 * \brief An output file that appears complete or not at all: written as
 * PATH.tmp and renamed to PATH by Commit(). A run that fails before Commit()
 * leaves no file that looks finished.
 */
class AtomicFile
{
  public:
    /** Opens PATH.tmp; throws DdnnError when it cannot. */
    explicit AtomicFile(const std::string& path);

    /** The stream to write to (precision 12 for numbers). */
    std::ofstream& Out();

    /** Closes and renames into place; throws DdnnError when writing failed. */
    void Commit();

  private:
    std::string m_path;
    std::ofstream m_out;
};

} // namespace ns3

#endif /* ATOMIC_FILE_H */
