#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-campaign --estimate against a hand computation. The table (test/data/
# estimate-calibration.csv) gives, per 8 workers, 40 and 80 CPU s per simulated s at rcp 2
# with 16 and 256 flows/s, 8 and 24 at rcp 32, and 30 at rcp 8 with 64 flows/s: in the
# logarithms a square and its middle, which the model cuts into four triangles and is linear
# over each. The campaign (test/data/estimate-campaign.xml) runs 4 workers for 2 s, so each
# run costs the model's value:
#   rcp 2:  32 flows/s 50 (a quarter up the square's edge 40..80), 64 flows/s 60 (halfway)
#   rcp 4:  35 (halfway from the corner 40 to the middle 30), 45 (halfway from 60 to 30)
#   rcp 8:  27 (from the edge's 24 halfway up to 30 in the lower triangle), 30 (measured)
#   rcp 64: outside, the right triangle's plane 36 - 28 x + 16 y (x, y the scaled logarithms)
#           carried on to x = 1.25: 5 and 9
# 261 CPU-s in all. In file order on 2 cores: 50|60, 35 -> 85, 45 -> 105, 27 -> 112,
# 30 -> 135, 5 -> 117, 9 -> 126: 135 s; on 6 cores the longest run, 60 s.
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
grep -q '^  8 runs, 16 simulated s, 261 CPU-s = 0.07 CPU-hours$' <<<"$out" || fail "CPU total"
grep -q '^  to run: 8 runs, 261 CPU-s' <<<"$out" || fail "runs to do"
grep -q '^  wall time on 2 local cores (--jobs): about 2 min 15 s$' <<<"$out" || fail "local wall"
grep -q '^  wall time on 3 machines of 2 cores: about 1 min 00 s$' <<<"$out" || fail "machines"
grep -q '^  extrapolated: 2 of 8 runs:$' <<<"$out" || fail "extrapolated count"
[ "$(grep -c 'rcp=64.*load outside' <<<"$out")" = 2 ] || fail "extrapolated runs named"
[ ! -e "$work" ] || fail "--estimate wrote $work"
# One run at a time: at a measured load exactly, between loads, and on a triangle's edge.
# rcp 8 at 64 flows/s is measured (30); rcp 4 at 64 flows/s lies between the edge (60) and the
# middle (30): 45; rcp 8 at 16 flows/s halfway along the bottom edge (40 to 8): 24; the thesis
# profile at rcp 2, 256 flows/s: its measured 160.
point() { # RCP FLOW PROFILE EXPECTED-CPU-S
    sed -e "s/values=\"2 4 8 64\"/values=\"$1\"/" -e "s/values=\"32 64\"/values=\"$2\"/" \
        -e "s/profile=\"tuned\"/profile=\"$3\"/" \
        "$tests/data/estimate-campaign.xml" >"$work-points/point.xml"
    local got
    got=$("$campaign" --campaign="$work-points/point.xml" \
        --calibration="$tests/data/estimate-calibration.csv" --estimate --outDir="$work")
    grep -q "^  1 runs, 2 simulated s, $4 CPU-s" <<<"$got" ||
        fail "rcp $1, $2 flows/s, $3: expected $4 CPU-s, got: $(grep 'simulated s' <<<"$got")"
    grep -q '^  extrapolated: 0 of 1 runs$' <<<"$got" || fail "rcp $1, $2 flows/s: extrapolated"
}
point 8 64 tuned 30
point 4 64 tuned 45
point 8 16 tuned 24
point 2 256 thesis 160
# The shipped table covers the thesis's grid for both profiles.
grid=$("$campaign" --campaign="$tests/../data/scenarios/thesis-grid.xml" --estimate --outDir="$work")
grep -q '^  96 runs, 1152 simulated s' <<<"$grid" || fail "thesis grid estimate"
echo "campaign estimate: ok"
