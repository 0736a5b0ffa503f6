/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-file.h"

#include "ns3/one-line-error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iomanip>

namespace ns3
{

AtomicFile::AtomicFile(const std::string& path)
    : m_path(path)
    , m_out(path + ".tmp")
{
    if (!m_out)
    {
        throw DdnnError(path + ": cannot write: " + std::strerror(errno));
    }
    m_out << std::setprecision(12);
}

std::ofstream&
AtomicFile::Out()
{
    return m_out;
}

void
AtomicFile::Commit()
{
    m_out.close(); // writes what is buffered: a full disk shows here at the latest
    if (!m_out)
    {
        const int cause = errno;
        std::remove((m_path + ".tmp").c_str());
        throw DdnnError(m_path + ": write failed: "
                        + (cause ? std::strerror(cause) : "the stream reported an error"));
    }
    if (std::rename((m_path + ".tmp").c_str(), m_path.c_str()) != 0)
    {
        const int cause = errno;
        std::remove((m_path + ".tmp").c_str());
        throw DdnnError(m_path + ": write failed: cannot rename " + m_path
                        + ".tmp into place: " + std::strerror(cause));
    }
}

} // namespace ns3
