/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONE_LINE_ERROR_H
#define ONE_LINE_ERROR_H

#include "ddnn-error.h"

#include <iostream>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Bad input or a run that cannot go on, as one line of text.
 *
 * ddnn throws this rather than calling NS_FATAL_ERROR so that a wrong file,
 * field or attribute ends a program with one readable line and a non-zero
 * exit (the example programs catch it in main), and so that tests and embedding programs
 * can catch it.
 * The message names the file and line, or the attribute, and what was expected.
 */
class DdnnError : public std::runtime_error
{
  public:
    explicit DdnnError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

/**
 * \ingroup ddnn
 * \brief A C core reader's outcome for \p file: its error (rc < 0) thrown as one line (after
 * the \p attribute that named the file, if given), or
 * the notice it left in \p diag for a deprecated form it accepted printed as a warning (once
 * per file and notice in a process).
 */
inline void
CheckReadOutcome(int rc,
                 const ddnn_diag& diag,
                 const std::string& file,
                 const std::string& attribute = "")
{
    char line[512];
    if (rc < 0 || diag.message[0] != '\0')
    {
        ddnn_diag_format(&diag, file.c_str(), line, sizeof line);
    }
    if (rc < 0)
    {
        throw DdnnError((attribute.empty() ? "" : attribute + ": ") + line);
    }
    static std::set<std::string> warned; // a file read again warns once
    if (diag.message[0] != '\0' && warned.insert(line).second)
    {
        std::cerr << "ddnn: warning: " << line << "\n";
    }
}

} // namespace ns3

#endif /* ONE_LINE_ERROR_H */
