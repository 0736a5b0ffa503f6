/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Runs the ddnn ns-3 TestSuites outside an ns-3 source tree (the standalone
 * build). In an ns-3 tree, ns-3's own test-runner and test.py run them.
 */
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
