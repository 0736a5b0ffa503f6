#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The campaign runner's processes: a second runner on the same folder stops with one line
# naming the first one's PID; a kill -9 of the runner takes its runs with it; a restart
# finishes the campaign; a campaign larger than --maxRuns is refused with its size; a failed
# run says how it ended.
# Usage: check-campaign-processes.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
campaign=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
# Two runs of a few seconds of wall time each (TCP training and background flows).
cat >"$work/campaign.xml" <<'XML'
<campaign version="1">
  <scenario version="1">
    <topology workers="4"/>
    <training compute-ms="8" queue="priority"/>
    <background flow-rate="400"/>
    <run duration-s="0.1" warmup-s="0.01" cooldown-s="0.01" seed="3" min-iterations="0"/>
  </scenario>
  <vary parameter="priority.training" values="same low"/>
</campaign>
XML
fail() { echo "FAIL: $*" >&2; exit 1; }
"$campaign" --campaign="$work/campaign.xml" --outDir="$work/out" --jobs=2 --report=false \
    2>"$work/first.log" &
first=$!
for _ in $(seq 100); do
    [ -f "$work/out/runs/training=same/.pid" ] && [ -f "$work/out/runs/training=low/.pid" ] && break
    sleep 0.1
done
children=$(cat "$work"/out/runs/*/.pid 2>/dev/null) || fail "the runs did not start"

# A second runner on the same folder.
if "$campaign" --campaign="$work/campaign.xml" --outDir="$work/out" 2>"$work/second.log"; then
    fail "a second runner on the same folder was not refused"
fi
[ "$(wc -l <"$work/second.log")" -eq 1 ] || fail "expected one line, got: $(cat "$work/second.log")"
grep -q "another ddnn program (PID $first) is writing into this folder" "$work/second.log" ||
    fail "the refusal does not name PID $first: $(cat "$work/second.log")"

# kill -9 of the runner: its runs die with it.
kill -9 "$first"
wait "$first" 2>/dev/null || true
for _ in $(seq 50); do
    alive=0
    for pid in $children; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && break
    sleep 0.1
done
[ $alive -eq 0 ] || fail "runs $children outlived their runner"

# A restart finishes the campaign.
"$campaign" --campaign="$work/campaign.xml" --outDir="$work/out" --jobs=2 --report=false \
    2>"$work/restart.log" || fail "the restart failed: $(tail -3 "$work/restart.log")"
for run in same low; do
    [ -s "$work/out/runs/training=$run/MANIFEST" ] || fail "run training=$run has no MANIFEST"
done

# Too many runs.
if "$campaign" --campaign="$work/campaign.xml" --outDir="$work/big" --maxRuns=1 2>"$work/big.log"; then
    fail "a campaign over --maxRuns was accepted"
fi
grep -q "the campaign has 2 runs, more than --maxRuns=1" "$work/big.log" ||
    fail "unexpected refusal: $(cat "$work/big.log")"

# A run that fails says how: its exit status or signal, or the outputs it left incomplete,
# and its log's last line or that the log is empty (never "failed: " and nothing).
printf '#!/bin/sh\nkill -9 $$\n' >"$work/killed-runner"
chmod +x "$work/killed-runner"
for runner in /bin/true /bin/false "$work/killed-runner"; do
    rm -rf "$work/failing"
    "$campaign" --campaign="$work/campaign.xml" --outDir="$work/failing" --jobs=1 \
        --runner="$runner" 2>"$work/failing.log" && fail "--runner=$runner: the campaign passed"
    case $runner in
    /bin/true) expected="failed (exit status 0, but its outputs are not complete: no MANIFEST): its log.txt is empty" ;;
    /bin/false) expected="failed (exit status 1): its log.txt is empty" ;;
    *) expected="failed (killed by signal 9, Killed): its log.txt is empty" ;;
    esac
    grep -qF "run training=same $expected" "$work/failing.log" ||
        fail "--runner=$runner: no '$expected' in: $(cat "$work/failing.log")"
done
echo "second runner refused, runs died with their runner, restart finished, size refused, failures explained"
