#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs as long as the precision asked for (run.precision, ddnn-precision.h): on the ideal
# transport, where priority changes nothing, the first stage is within any target and the run
# stops there; over TCP next to web-search flows, a target of +-1 point cannot be met within
# 0.15 simulated seconds: the stages grow, each longer than the last, until the cap ends them,
# and the run says that the cap, not the precision, ended it. precision.csv records every
# stage. (A cap of duration, not of CPU time: the test holds on any machine and under the
# sanitizers.)
# Usage: check-precision.sh DDNN-DATACENTER WORK-DIR
set -euo pipefail
program=$1 work=$2
fail() { echo "check-precision: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
printf 'layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000
2,100000,100000,200000\n3,100000,100000,200000\n' >"$work/tiny-profile.csv"
run() { # NAME ARGS...
    local name=$1
    shift
    "$program" --workers=3 --profile="$work/tiny-profile.csv" --fusionBytes=200000 --rcp=4 \
        --queue=priority --durationS=0.03 --warmupS=0.005 --cooldownS=0.005 --progress=never \
        --outDir="$work/$name" "$@" >"$work/$name.log" 2>&1 ||
        fail "$name: the run failed: $(tail -2 "$work/$name.log")"
}
run ideal --transport=ideal --flowRate=100 --compare --precision=0.05
[ "$(tail -n +2 "$work/ideal/precision.csv" | wc -l)" = 1 ] || fail "ideal: expected one stage"
grep -q ',reached$' "$work/ideal/precision.csv" || fail "ideal: the stage did not reach the precision"
grep -q "^precision: 1 stage(s), .*every half-width within +-5 points (the changes)" "$work/ideal.log" ||
    fail "ideal: no line saying the precision was reached"
# The allreduce time has its interval (batch means over the window's allreduces).
grep -qE '^allreduce time \(ms\) +[0-9.]+ \[[0-9.]+, [0-9.]+\] n=[0-9]+' "$work/ideal.log" ||
    fail "ideal: the allreduce time has no interval: $(grep allreduce "$work/ideal.log")"

run capped --flowRate=100 --precision=0.01 --maxDurationS=0.15
stages=$(tail -n +2 "$work/capped/precision.csv")
[ "$(wc -l <<<"$stages")" -ge 2 ] || fail "capped: expected several stages, got: $stages"
awk -F, 'NR > 1 && $1 != NR - 1 { exit 1 } NR > 2 && $2 <= last { exit 1 } { last = $2 }' \
    "$work/capped/precision.csv" || fail "capped: stages not numbered in order or not growing"
[ "$(tail -1 <<<"$stages" | cut -d, -f7)" = capped ] || fail "capped: the last stage is not capped: $stages"
grep -q "not the precision, ended it" "$work/capped.log" || fail "capped: no line naming the cap"
# The outputs are the last stage's, and its scenario reruns it as one stage.
last=$(tail -1 <<<"$stages" | cut -d, -f2)
written=$(grep -o 'duration-s="[^"]*"' "$work/capped/scenario.xml" | cut -d'"' -f2)
awk -v a="$written" -v b="$last" 'BEGIN { exit !(a - b < 1e-9 && b - a < 1e-9) }' ||
    fail "capped: scenario.xml's duration $written is not the last stage's $last"
grep -q 'precision="0"' "$work/capped/scenario.xml" || fail "capped: scenario.xml would run the stages again"
echo "precision: the ideal run stops at its first stage; over TCP $(wc -l <<<"$stages") stages, capped"
