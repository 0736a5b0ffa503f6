/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FATAL_ERROR_LINE_H
#define FATAL_ERROR_LINE_H

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief Makes an ns-3 fatal error (NS_FATAL_ERROR, NS_ABORT_MSG, NS_ASSERT_MSG, which print
 * a line and call std::terminate) and any other std::terminate end `program` like every
 * refused input: one line "PROGRAM: error: ns-3 stopped the run: ..." and exit status 1, not
 * a second line and an abort. Lines of std::cerr that are not such a message pass through
 * unchanged. Called once, before anything runs.
 */
void ReportFatalErrorsAsOneLine(const std::string& program);

} // namespace ns3

#endif /* FATAL_ERROR_LINE_H */
