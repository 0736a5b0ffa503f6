/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-file.h"

#include "ns3/ddnn-exception.h"

#include <cstdio>
#include <iomanip>

namespace ns3
{

AtomicFile::AtomicFile(const std::string& path)
    : m_path(path)
    , m_out(path + ".tmp")
{
    if (!m_out)
    {
        throw DdnnError(path + ": cannot write");
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
    m_out.close();
    if (!m_out || std::rename((m_path + ".tmp").c_str(), m_path.c_str()) != 0)
    {
        throw DdnnError(m_path + ": write failed");
    }
}

} // namespace ns3
