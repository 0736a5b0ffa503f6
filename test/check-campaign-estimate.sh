#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-campaign --estimate: every shipped campaign is estimated; at a load the calibration
# table measured, a run of the table's own scenario costs what the table says; a load
# outside the table is named; the estimate runs nothing. The packet count itself is checked
# from first principles by the suite ddnn-scenario-runner (PacketLoadTestCase), the
# estimate against measured campaigns by tools/estimate-vs-measured.sh.
# The table (test/data/estimate-calibration.csv) gives, per 8 workers, 40 and 80 CPU s per
# simulated s at rcp 1 with 16 and 256 flows/s, 8 and 24 at rcp 4, 30 at rcp 1.6 with 64
# flows/s; the thesis profile twice as much.
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
grep -q '^  6 runs, 12 simulated s, [0-9.]* CPU-s' <<<"$out" || fail "runs and simulated s"
grep -q '^  to run: 6 runs' <<<"$out" || fail "runs to do"
grep -q '^  wall time on 2 local cores (--jobs): about ' <<<"$out" || fail "local wall"
grep -q '^  wall time on 3 machines of 2 cores: about ' <<<"$out" || fail "machines"
grep -q '^  extrapolated: 2 of 6 runs:$' <<<"$out" || fail "extrapolated count"
[ "$(grep -c 'rcp=8.*load outside' <<<"$out")" = 2 ] || fail "extrapolated runs named"
[ ! -e "$work" ] || fail "--estimate wrote $work"
# With a precision, a run may take stages up to its max-cpu-s: the estimate says at most what.
sed 's/<run duration-s="2"/<run precision="0.05" max-cpu-s="1000" duration-s="2"/' \
    "$tests/data/estimate-campaign.xml" >"$work-points/precision.xml"
got=$("$campaign" --campaign="$work-points/precision.xml" \
    --calibration="$tests/data/estimate-calibration.csv" --estimate --outDir="$work")
grep -q '^  at most 6000 CPU-s = 1.67 CPU-hours: runs with a precision' <<<"$got" ||
    fail "precision: no worst case of 6 x max-cpu-s: $(grep 'at most' <<<"$got")"
# One run at a measured load: twice the table's figure, plus at most 0.15 CPU-s of setup
# and iterations.
point() { # RCP FLOW PROFILE TABLE-CPU-S-PER-S
    sed -e "s/values=\"1 1.6 8\"/values=\"$1\"/" -e "s/values=\"16 64\"/values=\"$2\"/" \
        -e "s/profile=\"tuned\"/profile=\"$3\"/" \
        "$tests/data/estimate-campaign.xml" >"$work-points/point.xml"
    local got cpu
    got=$("$campaign" --campaign="$work-points/point.xml" \
        --calibration="$tests/data/estimate-calibration.csv" --estimate --outDir="$work")
    cpu=$(sed -n 's/^  1 runs, 2 simulated s, \([0-9.e+]*\) CPU-s.*/\1/p' <<<"$got")
    awk -v c="$cpu" -v t="$4" 'BEGIN { exit !(c >= 2 * t + 0.05 && c <= 2 * t + 0.15) }' ||
        fail "rcp $1, $2 flows/s, $3: expected 2 x $4 CPU-s and the setup, got ${cpu:-nothing}"
    grep -q '^  extrapolated: 0 of 1 runs$' <<<"$got" || fail "rcp $1, $2 flows/s: extrapolated"
}
point 1.6 64 tuned 30
point 1 256 tuned 80
point 4 16 tuned 8
point 4 256 thesis 48
# Every shipped campaign is estimated (which also parses it); the shipped table covers the
# thesis's grid for both profiles.
for file in "$tests"/../data/scenarios/*.xml; do
    grep -q '<campaign' "$file" || continue
    got=$("$campaign" --campaign="$file" --estimate --outDir="$work") ||
        fail "$(basename "$file"): no estimate"
    grep -q '^  [0-9]* runs, .* CPU-s' <<<"$got" || fail "$(basename "$file"): no total"
done
# The costs README.md, doc/ and the campaign files quote are the estimate's: each
# "N runs, estimated X CPU-seconds|minutes|hours" on a line naming a shipped campaign (or in
# the campaign file itself) agrees with --estimate within 10 % (the figures are rounded).
claims=0
while IFS=: read -r file claim; do
    name=$(grep -oE '[a-z0-9-]+\.xml' <<<"$claim" | head -1 || true)
    [[ $file == *.xml ]] && name=$(basename "$file")
    [ -f "$tests/../data/scenarios/$name" ] || fail "$file: '$claim' names no shipped campaign"
    read -r runs value unit < <(sed -E 's/.*[^0-9]([0-9]+) runs, estimated ([0-9.]+) CPU-(seconds|minutes|hours).*/\1 \2 \3/' <<<"$claim")
    got=$("$campaign" --campaign="$tests/../data/scenarios/$name" --estimate --outDir="$work" |
        sed -n 's/^  \([0-9]*\) runs, [0-9.]* simulated s, \([0-9.e+]*\) CPU-s.*/\1 \2/p')
    read -r gotRuns gotCpu <<<"$got"
    [ "$gotRuns" = "$runs" ] || fail "$file: $name has $gotRuns runs, the text says $runs"
    awk -v c="$gotCpu" -v v="$value" -v u="$unit" 'BEGIN {
        s = u == "hours" ? 3600 : u == "minutes" ? 60 : 1
        exit !(c >= 0.9 * v * s && c <= 1.1 * v * s) }' ||
        fail "$file: $name: the text says $value CPU-$unit, the estimate $gotCpu CPU-s"
    claims=$((claims + 1))
done < <(cd "$tests/.." && grep -HE '[0-9]+ runs, estimated [0-9.]+ CPU-(seconds|minutes|hours)' \
    README.md doc/*.rst data/scenarios/*.xml || true)
echo "cost claims checked against the estimate: $claims"
grid=$("$campaign" --campaign="$tests/../data/scenarios/thesis-grid.xml" --estimate --outDir="$work")
grep -q '^  96 runs, 1152 simulated s' <<<"$grid" || fail "thesis grid estimate"
grep -q '^  extrapolated: 0 of 96 runs$' <<<"$grid" || fail "the thesis grid lies outside the table"
echo "campaign estimate: ok"
