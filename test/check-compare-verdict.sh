#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --compare's verdict line quotes the table above it: its iteration change is the "iteration
# time" row's and its small-flow change the "small flows: mean FCT" row's (a job has several
# rows, so a verdict that picked rows by position once quoted the allreduce row instead).
# Usage: check-compare-verdict.sh DDNN-DATACENTER WORK-DIR
set -euo pipefail
program=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000
2,100000,100000,200000\n3,100000,100000,200000\n' >"$work/tiny-profile.csv"
"$program" --workers=3 --profile="$work/tiny-profile.csv" --fusionBytes=200000 --rcp=4 \
    --flowRate=100 --durationS=0.06 --warmupS=0.005 --cooldownS=0.02 --progress=never \
    --compare --outDir="$work/compare" >"$work/compare.log" 2>&1 ||
    fail "--compare failed: $(tail -2 "$work/compare.log")"
# A change with its interval, as the table and the verdict print it: "+4.2 % [-5.4, +14.9]".
change='[-+][0-9.]+ % \[[-+0-9.]+, [-+0-9.]+\]'
row_change() { grep -E "^$1 " "$work/compare.log" | grep -oE "$change" || true; }
verdict=$(grep -E '^(SAFE|COSTLY|HARMFUL|INCONCLUSIVE)' "$work/compare.log" || true)
[ -n "$verdict" ] || fail "no verdict line"
small=$(row_change 'small flows: mean FCT \(ms\)')
[ -n "$small" ] || fail "the table has no small-flow change with its interval"
[[ $verdict == *"small flows' mean FCT changes by $small "* ]] ||
    fail "the verdict quotes another small-flow change than the table's $small: $verdict"
# The verdict's iteration change is the one in compare.csv's iteration row (the table rounds
# the same figures).
iteration=$(awk -F, '$1 == "iteration_time_mean_s" { printf "%+.1f %% [%+.1f, %+.1f]", $8, $9, $10 }' \
    "$work/compare/compare.csv")
[[ $verdict == *"iteration time by $iteration "* ]] ||
    fail "the verdict quotes another iteration change than compare.csv's $iteration: $verdict"
echo "compare verdict: quotes the iteration row ($iteration) and the small-flow row ($small)"
