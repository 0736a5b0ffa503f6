#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writes the Chakra traces of the C unit test (test/c/test-chakra.c) into $1: a good one and one
# folder per malformed variant of tools/make-chakra-trace.py.
set -eu
make=$(cd "$(dirname "$0")/.." && pwd)/tools/make-chakra-trace.py
out=$1
rm -rf "$out"
python3 "$make" "$out/good" --ranks=4
for variant in truncated oversized not-chakra cycle unknown-type all-gather no-comm-size \
    missing-dep duplicate-id disagree-size disagree-group disagree-count missing-rank stray-file; do
    python3 "$make" "$out/$variant" --ranks=4 --malformed=$variant
done
mkdir -p "$out/empty"
