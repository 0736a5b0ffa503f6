#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-campaign --estimate against a hand computation. The table (test/data/
# estimate-calibration.csv) is the plane 10 + 40/rcp + 0.1 x flow rate per 8 workers; the
# campaign (test/data/estimate-campaign.xml) runs 4 workers for 2 s, so each run costs the
# plane's value: rcp 2: 34 + 40, rcp 4: 24 + 30, rcp 16: 16.5 + 22.5 = 167 CPU-s in all.
# In file order on 2 cores: 34|40, 24 -> 58, 30 -> 70, 16.5 -> 74.5, 22.5 -> 92.5 s; on 6
# cores the longest run, 40 s. rcp 16 lies outside the table's loads (rcp 2..8).
# The estimate runs nothing: the output folder is not created.
# Usage: check-campaign-estimate.sh DDNN-CAMPAIGN TEST-DIR WORK-DIR
set -euo pipefail
campaign=$1 tests=$2 work=$3
rm -rf "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$("$campaign" --campaign="$tests/data/estimate-campaign.xml" \
    --calibration="$tests/data/estimate-calibration.csv" --estimate --jobs=2 \
    --machines=3 --coresPerMachine=2 --outDir="$work")
echo "$out"
grep -q '^  6 runs, 12 simulated s, 167 CPU-s = 0.05 CPU-hours$' <<<"$out" || fail "CPU total"
grep -q '^  to run: 6 runs, 167 CPU-s' <<<"$out" || fail "runs to do"
grep -q '^  wall time on 2 local cores (--jobs): about 1 min 33 s$' <<<"$out" || fail "local wall"
grep -q '^  wall time on 3 machines of 2 cores: about 0 min 40 s$' <<<"$out" || fail "machines"
grep -q '^  extrapolated: 2 of 6 runs:$' <<<"$out" || fail "extrapolated count"
[ "$(grep -c 'rcp=16.*load outside' <<<"$out")" = 2 ] || fail "extrapolated runs named"
[ ! -e "$work" ] || fail "--estimate wrote $work"
# The shipped table covers the thesis's grid for both profiles.
grid=$("$campaign" --campaign="$tests/../data/scenarios/thesis-grid.xml" --estimate --outDir="$work")
grep -q '^  96 runs, 1152 simulated s' <<<"$grid" || fail "thesis grid estimate"
echo "campaign estimate: ok"
