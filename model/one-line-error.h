/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONE_LINE_ERROR_H
#define ONE_LINE_ERROR_H

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

} // namespace ns3

#endif /* ONE_LINE_ERROR_H */
