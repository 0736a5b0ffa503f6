#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Examples that ns-3's test.py runs as tests when ddnn sits in an ns-3 source tree.
# Each entry: (command line, run condition, valgrind condition).

cpp_examples = [
    ("ddnn-fusion-plan", "True", "True"),
    ("ddnn-training --workers=2 --iterations=1 --rcp=4 --transport=ideal", "True", "True"),
    (
        "ddnn-datacenter --workers=4 --transport=ideal --rcp=4 --flowRate=200 --durationS=0.05 "
        "--warmupS=0.01 --cooldownS=0.01 --compare",
        "True",
        "False",
    ),
]

python_examples = []
