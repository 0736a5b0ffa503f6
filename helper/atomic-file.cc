/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-file.h"

#include "ns3/one-line-error.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iomanip>

namespace ns3
{

AtomicFile::AtomicFile(const std::string& path)
    : m_path(path)
{
    // mkstemp creates the file with O_EXCL under a name no one could have planted.
    std::string name = path + ".tmp-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0)
    {
        throw DdnnError(path + ": cannot write: " + std::strerror(errno));
    }
    // mkstemp's file is the owner's only: give it the mode an ordinary new file would have.
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    m_temporary = name;
    m_out.open(m_temporary);
    if (!m_out)
    {
        const int cause = errno;
        std::remove(m_temporary.c_str());
        throw DdnnError(path + ": cannot write: " + std::strerror(cause));
    }
    m_out << std::setprecision(12);
}

AtomicFile::~AtomicFile()
{
    if (!m_temporary.empty())
    {
        m_out.close();
        std::remove(m_temporary.c_str());
    }
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
        std::remove(m_temporary.c_str());
        m_temporary.clear();
        throw DdnnError(m_path + ": write failed: "
                        + (cause ? std::strerror(cause) : "the stream reported an error"));
    }
    if (std::rename(m_temporary.c_str(), m_path.c_str()) != 0)
    {
        const int cause = errno;
        std::remove(m_temporary.c_str());
        const std::string temporary = m_temporary;
        m_temporary.clear();
        throw DdnnError(m_path + ": write failed: cannot rename " + temporary
                        + " into place: " + std::strerror(cause));
    }
    m_temporary.clear();
}

} // namespace ns3
