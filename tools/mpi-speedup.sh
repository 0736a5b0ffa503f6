#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mpi-speedup.sh: what a second process buys one run. The same scenario on 1 and on 2 ranks
# of ns-3's distributed simulator, interleaved (1 2 1 2 ...) so that a disturbed moment of a
# shared machine hits one pair, with the wall-time ratio per pair; then the synchronisation's
# cost from the events each rank executed (ranks.csv) and a projection to more ranks.
#
# Usage:
#   tools/mpi-speedup.sh [--pairs=N] [--sync=barrier|null-message] PROGRAM OUTDIR [SCENARIO]
#
#   PROGRAM   ddnn-datacenter of an MPI build (./ddnn mpi build prints its path)
#   OUTDIR    created if missing: one run folder per pair and rank count, and speedup.csv:
#             pair,ranks,wall_s,events_max_rank,events_total
#   SCENARIO  default: data/scenarios/mpi-two-racks.xml
#   --pairs=N pairs of runs (default 3); --sync: the distributed simulator (default barrier)
#   --report  no run: the figures of OUTDIR/speedup.csv again
#
# The figures it derives, and what they assume:
#   cost per event  c = wall(1 rank) / events(1 rank)
#   synchronisation = wall(2 ranks) - c x events of the busier rank: what the 2-rank run spends
#                     beyond its busier rank's own work (waiting for the other included)
#   windows         <= simulated time / lookahead (the delay of a link between ranks): the
#                     barrier simulator grants one window of at most the lookahead per round
# The projection keeps each rank's work that of one rack here (a fabric of P such racks on P
# ranks) and grows the cost of one round as log2(P), as an all-reduce over P processes does;
# it is a projection, not a measurement.
set -euo pipefail

die() {
    echo "mpi-speedup.sh: $*" >&2
    exit 1
}

pairs=3 sync=barrier report=
while [ $# -gt 0 ]; do
    case $1 in
    --pairs=*) pairs=${1#*=} ;;
    --sync=*) sync=${1#*=} ;;
    --report) report=1 ;;
    --*) die "unknown option '$1' (expected --pairs=N, --sync=barrier|null-message or --report)" ;;
    *) break ;;
    esac
    shift
done
[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: tools/mpi-speedup.sh [--pairs=N] [--sync=S] PROGRAM OUTDIR [SCENARIO]"
[[ $pairs =~ ^[1-9][0-9]?$ ]] || die "--pairs: expected 1 to 99, got '$pairs'"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
program=$1 out=$2 scenario=${3:-$here/data/scenarios/mpi-two-racks.xml}
[ -x "$program" ] || die "no program at $program (./ddnn mpi build)"
[ -f "$scenario" ] || die "no scenario at $scenario"
mkdir -p "$out"
mpi=(mpirun --oversubscribe)
[ "$(id -u)" -ne 0 ] || mpi+=(--allow-run-as-root)
export DDNN_DATA_DIR=${DDNN_DATA_DIR:-$here/data}
[ -z "$report" ] || [ -f "$out/speedup.csv" ] || die "--report: no $out/speedup.csv"
[ -n "$report" ] || echo "pair,ranks,wall_s,events_max_rank,events_total" >"$out/speedup.csv"
for pair in $([ -n "$report" ] || seq 1 "$pairs"); do
    for ranks in 1 2; do
        dir=$out/pair$pair-ranks$ranks
        start=$(date +%s.%N)
        "${mpi[@]}" -np "$ranks" "$program" --mpi --mpiSync="$sync" --scenario="$scenario" \
            --progress=never --outDir="$dir" >"$dir.log" 2>&1 || die "pair $pair, $ranks rank(s) failed (log: $dir.log)"
        end=$(date +%s.%N)
        awk -F, -v p="$pair" -v r="$ranks" -v w="$(echo "$end - $start" | bc -l)" '
            NR > 1 { total += $3; if ($3 > most) most = $3 }
            END { printf "%s,%s,%.3f,%d,%d\n", p, r, w, most, total }' "$dir/ranks.csv" >>"$out/speedup.csv"
    done
done
duration=$(awk -F'"' '/duration-s=/ { for (i = 1; i < NF; i++) if ($i ~ /duration-s=$/) print $(i + 1) }' "$scenario")
delay_us=$(awk -F'"' '/delay-us=/ { for (i = 1; i < NF; i++) if ($i ~ /delay-us=$/) print $(i + 1) }' "$scenario")
awk -F, -v T="$duration" -v L="$delay_us" -v sync="$sync" '
    NR == 1 { next }
    $2 == 1 { w1[$1] = $3; e1[$1] = $5 }
    $2 == 2 { w2[$1] = $3; m2[$1] = $4; e2[$1] = $5 }
    END {
        windows = T / (L * 1e-6)
        pairs = (NR - 1) / 2
        printf "%d pairs, %s simulator, %.2f simulated s, lookahead %s us (<= %d windows)\n", pairs, sync, T, L, windows
        printf "pair  wall 1 rank  wall 2 ranks  speedup  events 1 rank  busier rank  sync s  per window us\n"
        n = 0
        for (p in w1) {
            c = w1[p] / e1[p]
            overhead = w2[p] - c * m2[p]
            printf "%4d %12.2f %13.2f %8.2f %14d %12d %7.2f %14.2f\n", p, w1[p], w2[p], w1[p] / w2[p], e1[p], m2[p], overhead, overhead / windows * 1e6
            speed[++n] = w1[p] / w2[p]; per[n] = overhead / windows; cost[n] = c; rack[n] = e1[p] / 2
        }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (speed[j] < speed[i]) { t = speed[i]; speed[i] = speed[j]; speed[j] = t }
        printf "speedup: median %.2f (min %.2f, max %.2f, n=%d)\n", speed[int((n + 1) / 2)], speed[1], speed[n], n
        s = 0; cc = 0; rk = 0
        for (i = 1; i <= n; i++) { s += per[i]; cc += cost[i]; rk += rack[i] }
        s /= n; cc /= n; rk /= n
        printf "projection (not measured): P racks like these on P ranks, wall per simulated s = one rack'"'"'s events x %.3g s + %d windows x %.3g s x log2(P)\n", cc, windows / T, s
        for (P = 2; P <= 64; P *= 2) {
            work = rk / T * cc; syn = windows / T * s * log(P) / log(2)
            if (P == 2 || P == 16 || P == 64)
                printf "  P=%2d: %.1f s of rack work + %.1f s of synchronisation per simulated s (1 rank: %.0f s)\n", P, work, syn, work * P
        }
    }' "$out/speedup.csv"
