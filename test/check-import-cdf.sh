#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/import-cdf.sh converts a published flow-size distribution (SIZE PERCENT lines) into the
# file test/data/heavy-tail-cdf.csv holds, refuses what is not a distribution in one line, and
# a run takes the result as --cdf=FILE; a shipped distribution is taken by name
# (--cdf=web-search), an unknown name refused naming the shipped ones.
# Usage: check-import-cdf.sh DDNN-DATACENTER WORK-DIR
set -euo pipefail
program=$1 work=$2
here=$(cd "$(dirname "$0")/.." && pwd)
import=$here/tools/import-cdf.sh
fail() { echo "check-import-cdf: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# The conversion, exactly.
"$import" "$here/test/data/heavy-tail-percent.txt" "$work/heavy-tail-cdf.csv" \
    "made up for the tests (test/data/heavy-tail-percent.txt): no measured workload" >/dev/null
cmp -s "$work/heavy-tail-cdf.csv" "$here/test/data/heavy-tail-cdf.csv" ||
    fail "the conversion differs from test/data/heavy-tail-cdf.csv: $(diff "$work/heavy-tail-cdf.csv" "$here/test/data/heavy-tail-cdf.csv" | head -3)"

# What is not a distribution: one line naming the file (and the line), exit 1, nothing written.
refused() { # EXPECTED-PATTERN INPUT-TEXT
    printf '%b' "$2" >"$work/in.txt"
    rm -f "$work/out.csv"
    if "$import" "$work/in.txt" "$work/out.csv" source 2>"$work/err" >/dev/null; then fail "accepted: $2"; fi
    [ "$(wc -l <"$work/err")" = 1 ] && grep -qE "$1" "$work/err" || fail "for '$2': expected one line like '$1', got: $(cat "$work/err")"
    [ ! -e "$work/out.csv" ] || fail "for '$2': an output was written"
}
refused 'in.txt:3: sizes decrease' '0 0\n10 50\n5 60\n20 100\n'
refused 'in.txt:3: shares decrease' '0 0\n10 50\n20 40\n30 100\n'
refused 'in.txt:1: the first share must be 0' '0 5\n10 100\n'
refused 'in.txt: the last share must be 100' '0 0\n10 50\n'
refused 'in.txt:2: expected SIZE CUMULATIVE' '0 0\n10 50 7\n20 100\n'
refused 'in.txt:2: not a number' '0 0\nten 50\n20 100\n'
refused 'in.txt: fewer than two points' '0 0\n'
if "$import" "$here/test/data/heavy-tail-percent.txt" "$work/heavy-tail-cdf.csv" x 2>"$work/err" >/dev/null; then
    fail "an existing output was overwritten"
fi
grep -q 'exists' "$work/err" || fail "an existing output: $(cat "$work/err")"

# Runs take the converted file, and a shipped distribution by name.
run() { # OUT [ARGS...]
    local out=$1
    shift
    "$program" --workers=3 --transport=ideal --flowRate=50 --durationS=0.02 --warmupS=0 \
        --cooldownS=0 --minIterations=0 --progress=never --outDir="$out" "$@"
}
run "$work/converted" --cdf="$work/heavy-tail-cdf.csv" >/dev/null || fail "a run refused the converted file"
grep -q "cdf=\"$work/heavy-tail-cdf.csv\"" "$work/converted/scenario.xml" || fail "the run did not record the converted file"
run "$work/named" --cdf=web-search >/dev/null || fail "--cdf=web-search was refused"
grep -q 'cdf="[^"]*/web-search-cdf.csv"' "$work/named/scenario.xml" || fail "--cdf=web-search did not select data/web-search-cdf.csv"
if run "$work/unknown" --cdf=hadoop 2>"$work/err" >/dev/null; then fail "--cdf=hadoop was accepted"; fi
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "error: --cdf=hadoop: no flow-size distribution of that name (ddnn ships web-search" "$work/err" ||
    fail "--cdf=hadoop: $(cat "$work/err")"
echo "check-import-cdf: conversion exact, 8 refusals, converted and named distributions run"
