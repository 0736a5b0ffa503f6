#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Three scenarios (test/data/mpi-leaf-spine.xml, test/data/mpi-single-tor.xml, and the latter
# with 0.1 % of the packets lost on every link) on 1 and on 2 ranks of ns-3's distributed
# simulator must give the same answers: the same files, the same iterations (count, and mean
# period within 0.1 %, or for the lossy one 95 % intervals that overlap: see compare), the
# same flows started and completed per class, and flow completion
# times a two-sample Kolmogorov-Smirnov test cannot tell apart (p >= 0.05). It prints which
# files are byte-identical (ns-3 orders simultaneous events by when they were scheduled,
# and a packet from another rank is scheduled later than one from the same process, so a
# few packets may swap places). Then what a distributed run refuses, one line each.
# Usage: DDNN_MPI_PROGRAM=ns3.37-ddnn-datacenter check-mpi-ranks.sh WORK-DIR
set -euo pipefail
work=$1
program=${DDNN_MPI_PROGRAM:?the ddnn-datacenter of an MPI build (./ddnn mpi build)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scenario=$here/data/mpi-leaf-spine.xml # of the refusals
fail() { echo "FAIL: $*" >&2; exit 1; }
mpi=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
mkdir -p "$work"
declare -a wall
# One scenario on 1 and 2 ranks (NAME CRITERION SCENARIO [ARGS]): the same files and answers.
# CRITERION for the mean iteration: "exact" (within 0.1 %: the runs see the same packets,
# a few swapped), or "overlap" (the runs' 95 % intervals overlap: with losses on the links a
# packet that arrives from another rank a moment later draws another packet's loss, and the
# runs part ways as two seeds would).
compare() {
    local name=$1 criterion=$2 scenario=$3
    shift 3
    local one=$work/$name-ranks-1 two=$work/$name-ranks-2 ranks start
    for ranks in 1 2; do
        rm -rf "$work/$name-ranks-$ranks"
        start=$(date +%s%N)
        "${mpi[@]}" -np "$ranks" "$program" --mpi --scenario="$scenario" --progress=never \
            --outDir="$work/$name-ranks-$ranks" "$@" >"$work/$name-ranks-$ranks.log" 2>&1 ||
            fail "$name, $ranks rank(s): $(grep -m1 error "$work/$name-ranks-$ranks.log" || tail -n 3 "$work/$name-ranks-$ranks.log")"
        wall[ranks]=$((($(date +%s%N) - start) / 1000000))
    done
    awk -v n="$name" -v a="${wall[1]}" -v b="${wall[2]}" \
        'BEGIN { printf "%s: wall %.1f s on 1 rank, %.1f s on 2 (speed-up %.2f)\n", n, a / 1000, b / 1000, a / b }'
    [ "$(cd "$one" && ls)" = "$(cd "$two" && ls)" ] || fail "$name: the two runs wrote different files"
    local identical=() differing=() file
    for file in "$one"/*.csv; do
        file=$(basename "$file")
        if cmp -s "$one/$file" "$two/$file"; then identical+=("$file"); else differing+=("$file"); fi
    done
    echo "$name: byte-identical on 1 and 2 ranks: ${identical[*]:-none}"
    echo "$name: not byte-identical: ${differing[*]:-none}"
    key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }
    # The flows started come from the seed alone; with losses, what completes may differ.
    local keys=(flows_small_started flows_medium_started flows_large_started)
    [ "$criterion" = overlap ] || keys+=(iterations_completed iterations_measured
        flows_small_completed flows_medium_completed flows_large_completed)
    for k in "${keys[@]}"; do
        [ "$(key "$one" $k)" = "$(key "$two" $k)" ] ||
            fail "$name: $k: $(key "$one" $k) on 1 rank, $(key "$two" $k) on 2"
    done
    [ "$(key "$one" iterations_completed)" -ge 3 ] || fail "$name: fewer than 3 iterations: nothing compared"
    python3 - "$one" "$two" "$criterion" <<'PY' || fail "$name: the runs differ (above)"
import csv, math, sys

def summary(d):
    return {row[0]: row[1] for row in csv.reader(open(d + "/summary.csv"))}

def fcts(d):
    rows = csv.DictReader(open(d + "/flows.csv"))
    return sorted(float(r["fct_s"]) for r in rows if r["completed"] == "true" and r["in_window"] == "true")

one, two, criterion = sys.argv[1], sys.argv[2], sys.argv[3]
s1, s2 = summary(one), summary(two)
a, b = float(s1["iteration_time_mean_s"]), float(s2["iteration_time_mean_s"])
lo1, hi1 = float(s1["iteration_time_ci_low_s"]), float(s1["iteration_time_ci_high_s"])
lo2, hi2 = float(s2["iteration_time_ci_low_s"]), float(s2["iteration_time_ci_high_s"])
print("mean iteration: %.6f ms [%.3f, %.3f] on 1 rank, %.6f ms [%.3f, %.3f] on 2"
      % (a * 1e3, lo1 * 1e3, hi1 * 1e3, b * 1e3, lo2 * 1e3, hi2 * 1e3))
if criterion == "exact" and abs(a - b) > 1e-3 * a:
    sys.exit("the mean iterations differ by more than 0.1 %")
if criterion == "overlap" and (hi1 < lo2 or hi2 < lo1):
    sys.exit("the mean iterations' 95 % intervals do not overlap")
x, y = fcts(one), fcts(two)
if len(x) < 20:
    sys.exit("fewer than 20 completed flows: nothing to test")
# Two-sample Kolmogorov-Smirnov: the largest gap between the two empirical CDFs, and its
# asymptotic p-value.
d = i = j = 0
while i < len(x) and j < len(y):
    v = min(x[i], y[j])
    while i < len(x) and x[i] <= v:
        i += 1
    while j < len(y) and y[j] <= v:
        j += 1
    d = max(d, abs(i / len(x) - j / len(y)))
n = len(x) * len(y) / (len(x) + len(y))
lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
p = 1.0 if lam == 0 else max(0.0, min(1.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))))
moved = sum(1 for u, w in zip(x, y) if u != w)
print("FCT of %d flows: KS D = %.4f, p = %.3f (%d sorted FCTs differ)" % (len(x), d, p, moved))
if p < 0.05:
    sys.exit("the FCT distributions differ (KS p < 0.05)")
PY
}
compare leaf-spine exact "$here/data/mpi-leaf-spine.xml"
compare single-tor exact "$here/data/mpi-single-tor.xml"
compare single-tor-lossy overlap "$here/data/mpi-single-tor.xml" --lossRate=0.001 --durationS=1.2
# What a distributed run refuses, one line each.
refused() { # WHAT RANKS REGEX ARGS...
    local what=$1 ranks=$2 regex=$3 out
    shift 3
    if out=$("${mpi[@]}" -np "$ranks" "$program" --mpi --scenario="$scenario" --progress=never \
        --outDir="$work/refused" "$@" 2>&1); then
        fail "$what: accepted"
    fi
    grep -qE "$regex" <<<"$out" || fail "$what: expected /$regex/, got: $(grep -m1 error <<<"$out")"
    [ "$(grep -c 'ddnn-datacenter: error:' <<<"$out")" -eq 1 ] || fail "$what: not one line"
    echo "refused: $what"
}
refused "the instant syncer" 2 "[Ss]yncer: Instant, but the job's workers run in 2 processes.*expected Network" \
    --syncer=instant
refused "3 ranks on 2 racks" 3 "Ranks: 3 ranks, expected at most the 2 racks"
refused "5 ranks on 4 servers of a single ToR" 5 "SingleTorHelper::Ranks: 5 ranks, expected at most the 4 servers" \
    --scenario="$here/data/mpi-single-tor.xml"
refused "a link between ranks without delay" 2 "has no delay, expected a delay above 0" --delayUs=0
echo "PASS: 1 and 2 ranks agree"
