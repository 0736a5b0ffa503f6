#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-campaign --estimate against a hand computation. The table (test/data/
# estimate-calibration.csv) gives, per 8 workers, 40 and 80 CPU s per simulated s at rcp 1
# with 16 and 256 flows/s, 8 and 24 at rcp 4, and 30 at rcp 1.6 with 64 flows/s. In the
# model's plane, X = (1/rcp - 0.25) / 0.75 and Y = log(flow rate / 16) / log(16), these are
# the unit square's corners and its middle, which the model cuts into four triangles and is
# linear over each: left (X = 0 edge) 8 + 16 Y + 28 X, bottom 8 + 32 X + 12 Y, right
# (X = 1 edge) 40 + 40 Y - 60 (1 - X). The campaign (test/data/estimate-campaign.xml) runs
# 4 workers for 2 s, so each run costs the model's value:
#   rcp 1 (X = 1):      32 flows/s (Y = 1/4) 50, 64 flows/s (Y = 1/2) 60: the right edge
#   rcp 2 (X = 1/3):    21.6667 (bottom triangle), 25.3333 (left triangle)
#   rcp 1.6 (X = 1/2):  27 (bottom), 30 (measured)
#   rcp 8 (X = -1/6):   outside; the left triangle's plane carried on: 7.3333, 11.3333
# 232.667 CPU-s in all. In file order on 2 cores: 50|60, 21.67 -> 71.67, 25.33 -> 85.33,
# 27 -> 98.67, 30 -> 115.33, 7.33 -> 106, 11.33 -> 117.33 s; on 6 cores the longest run, 60 s.
# The estimate runs nothing: the output folder is not created.
# Usage: check-campaign-estimate.sh DDNN-CAMPAIGN TEST-DIR WORK-DIR
set -euo pipefail
campaign=$1 tests=$2 work=$3
rm -rf "$work" "$work-points"
mkdir -p "$work-points"
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$("$campaign" --campaign="$tests/data/estimate-campaign.xml" \
    --calibration="$tests/data/estimate-calibration.csv" --estimate --jobs=2 \
    --machines=3 --coresPerMachine=2 --outDir="$work")
echo "$out"
grep -q '^  8 runs, 16 simulated s, 232.667 CPU-s = 0.06 CPU-hours$' <<<"$out" || fail "CPU total"
grep -q '^  to run: 8 runs, 232.667 CPU-s' <<<"$out" || fail "runs to do"
grep -q '^  wall time on 2 local cores (--jobs): about 1 min 57 s$' <<<"$out" || fail "local wall"
grep -q '^  wall time on 3 machines of 2 cores: about 1 min 00 s$' <<<"$out" || fail "machines"
grep -q '^  extrapolated: 2 of 8 runs:$' <<<"$out" || fail "extrapolated count"
[ "$(grep -c 'rcp=8.*load outside' <<<"$out")" = 2 ] || fail "extrapolated runs named"
[ ! -e "$work" ] || fail "--estimate wrote $work"
# One run at a time: at a measured load exactly, between loads, and on a triangle's edge.
# rcp 1.6 at 64 flows/s is measured (30); rcp 1 at 64 flows/s halfway up the right edge
# between two measured loads (40 to 80): 60; rcp 2 at 64 flows/s (X = 1/3, Y = 1/2) in the
# left triangle: 8 + 8 + 28/3 = 25.3333; the thesis profile at rcp 4, 256 flows/s: its
# measured 48.
point() { # RCP FLOW PROFILE EXPECTED-CPU-S
    sed -e "s/values=\"1 2 1.6 8\"/values=\"$1\"/" -e "s/values=\"32 64\"/values=\"$2\"/" \
        -e "s/profile=\"tuned\"/profile=\"$3\"/" \
        "$tests/data/estimate-campaign.xml" >"$work-points/point.xml"
    local got
    got=$("$campaign" --campaign="$work-points/point.xml" \
        --calibration="$tests/data/estimate-calibration.csv" --estimate --outDir="$work")
    grep -q "^  1 runs, 2 simulated s, $4 CPU-s" <<<"$got" ||
        fail "rcp $1, $2 flows/s, $3: expected $4 CPU-s, got: $(grep 'simulated s' <<<"$got")"
    grep -q '^  extrapolated: 0 of 1 runs$' <<<"$got" || fail "rcp $1, $2 flows/s: extrapolated"
}
point 1.6 64 tuned 30
point 1 64 tuned 60
point 2 64 tuned 25.3333
point 4 256 thesis 48
# The shipped table covers the thesis's grid for both profiles.
grid=$("$campaign" --campaign="$tests/../data/scenarios/thesis-grid.xml" --estimate --outDir="$work")
grep -q '^  96 runs, 1152 simulated s' <<<"$grid" || fail "thesis grid estimate"
grep -q '^  extrapolated: 0 of 96 runs$' <<<"$grid" || fail "the thesis grid lies outside the table"
echo "campaign estimate: ok"
