#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Examples that ns-3's test.py runs as tests when ddnn sits in an ns-3 source tree.
# Each entry: (command line, run condition, valgrind condition). The command lines are the
# short runs of the standalone build's ctest entries (test/tests.cmake); every example of
# ddnn_examples in ../CMakeLists.txt should have an entry (./ddnn intree warns otherwise).

cpp_examples = [
    ("ddnn-fusion-plan", "True", "True"),
    ("ddnn-training --workers=2 --iterations=1 --rcp=4", "True", "True"),
    ("ddnn-datacenter --workers=4 --transport=ideal --rcp=4 --flowRate=200 --durationS=0.1 --warmupS=0.02 --cooldownS=0.02 --minIterations=0 --compare", "True", "False"),
    # Expands the thesis grid (96 runs) and lists their commands without running them.
    ("ddnn-campaign --campaign=scenarios/thesis-grid.xml --outDir=ddnn-campaign-output --list", "True", "True"),
    # A wall-time benchmark, not a test: built, not run.
    ("ddnn-bench", "False", "False"),
]

python_examples = []
