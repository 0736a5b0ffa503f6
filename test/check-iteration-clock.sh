#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The thesis code's iteration clock in ddnn's summary: iteration_backward_clock_mean_s is the
# figure tools/thesis-side-by-side.sh takes from layers.csv (from one start of the last
# layer's backward pass to the next, per worker; the k-th periods that start inside the
# window averaged over the workers, then their mean), computed here again from layers.csv;
# --compare shows it with its interval.
# Usage: check-iteration-clock.sh DDNN-DATACENTER WORK-DIR
set -euo pipefail
program=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000
2,100000,100000,200000\n3,100000,100000,200000\n' >"$work/tiny-profile.csv"
args=(--workers=3 --profile="$work/tiny-profile.csv" --fusionBytes=200000 --rcp=4
    --flowRate=100 --durationS=0.06 --warmupS=0.005 --cooldownS=0.02 --progress=never)
"$program" "${args[@]}" --outDir="$work/run" >"$work/run.log" 2>&1 || fail "the run failed: $(tail -2 "$work/run.log")"
key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }
# layers.csv: worker,iteration,layer,pass,start_s,end_s; the window [0.005, 0.04) s.
read -r mean count <<<"$(awk -F, -v lo=5000000 -v hi=40000000 'NR > 1 && $3 == 3 && $4 == "backward" {
        printf "%s,%.0f\n", $1, $5 * 1e9 }' "$work/run/layers.csv" | sort -t, -k1,1n -k2,2n |
    awk -F, -v lo=5000000 -v hi=40000000 '{
            w = $1; t = $2 + 0
            if ((w in prev) && prev[w] >= lo && prev[w] < hi) { k = ++seen[w]; sum[k] += t - prev[w]; cnt[k]++; if (k > kmax) kmax = k }
            prev[w] = t }
        END { for (i = 1; i <= kmax; i++) total += sum[i] / cnt[i] / 1e9; printf "%.12g %d\n", kmax ? total / kmax : -1, kmax }')"
[ "$count" -ge 3 ] || fail "fewer than 3 periods in layers.csv ($count): nothing compared"
[ "$(key "$work/run" iterations_measured_backward_clock)" = "$count" ] ||
    fail "summary: $(key "$work/run" iterations_measured_backward_clock) periods, layers.csv gives $count"
awk -v a="$(key "$work/run" iteration_backward_clock_mean_s)" -v b="$mean" \
    'BEGIN { exit !(a > 0 && (a - b < 1e-9 * b && b - a < 1e-9 * b)) }' ||
    fail "summary: mean $(key "$work/run" iteration_backward_clock_mean_s) s, layers.csv gives $mean s"
[ "$(key "$work/run" iteration_backward_clock_ci_low_s)" != NA ] || fail "summary: no interval"
"$program" "${args[@]}" --compare --outDir="$work/compare" >"$work/compare.log" 2>&1 ||
    fail "--compare failed: $(tail -2 "$work/compare.log")"
grep -qE '^iteration \(thesis clock, ms\) +[0-9.]+ \[[0-9.]+, [0-9.]+\] n=[0-9]+' "$work/compare.log" ||
    fail "--compare shows no thesis-clock row with its interval"
echo "iteration clock: the summary's backward clock ($mean s over $count periods) is layers.csv's"
