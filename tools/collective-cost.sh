#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# collective-cost.sh: what each collective costs to simulate, in CPU seconds per simulated
# second, on one rack of 8 workers at the same training load (the network-services
# scenario's: the thesis model at a tenth, R_cp_to_nw 4, web search at 92 flows/s per server,
# same priority), the four collectives interleaved A B C D A B C D ... so that a disturbed
# moment of a shared machine hits one round, not one collective.
#
# Usage:
#   tools/collective-cost.sh [--repeat=N] [--durationS=S] PROGRAMS_DIR OUTDIR
#
#   PROGRAMS_DIR  the folder of ddnn-datacenter (build/examples, or a copy of it with
#                 libns3-ddnn.so beside it)
#   OUTDIR        created if missing; gets one run folder per collective and round, and
#                 cost.csv: collective,round,cpu_s,simulated_s,cpu_s_per_sim_s,ratio_to_ring
#   --repeat=N    rounds (default 2)
#   --durationS=S simulated seconds per run (default 0.4)
#
# Each run is the whole program (setup included): with 0.4 s simulated the setup is a few
# percent of it. The ratio to the ring is taken within a round.
set -euo pipefail

die() {
    echo "collective-cost.sh: $*" >&2
    exit 1
}

repeat=2 duration=0.4
while [ $# -gt 0 ]; do
    case $1 in
    --repeat=*) repeat=${1#*=} ;;
    --durationS=*) duration=${1#*=} ;;
    --*) die "unknown option '$1' (expected --repeat=N or --durationS=S)" ;;
    *) break ;;
    esac
    shift
done
[ $# -eq 2 ] || die "usage: tools/collective-cost.sh [--repeat=N] [--durationS=S] PROGRAMS_DIR OUTDIR"
programs=$1 out=$2
[[ $repeat =~ ^[1-9][0-9]?$ ]] || die "--repeat=$repeat: expected a whole number in [1, 99]"
[[ $duration =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--durationS=$duration: expected a positive number"
program=$programs/ddnn-datacenter
[ -x "$program" ] || die "$program: no such program (expected PROGRAMS_DIR with ddnn-datacenter)"
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"

# The network-services scenario's rack and job, by collective.
common=(--workers=9 --jobWorkers=8 --profile=thesis-tenth-profile.csv --fusionBytes=533333
    --rcp=4 --queue=priority --flowRate=92 --trainingPriority=same --durationS="$duration"
    --warmupS=0.05 --cooldownS=0.05 --minIterations=0 --seed=1)
declare -A args=(
    [ring]="--collective=ring-allreduce --placement=0,1,2,3,4,5,6,7"
    [ps-tcp]="--collective=parameter-server --parameterServerHosts=dedicated --placement=0,1,2,3,4,5,6,7,8"
    [ps-multicast]="--collective=parameter-server --parameterServerHosts=dedicated --placement=0,1,2,3,4,5,6,7,8 --distribution=multicast"
    [in-network]="--collective=in-network-aggregation --placement=0,1,2,3,4,5,6,7"
)
order=(ring ps-tcp ps-multicast in-network)

echo "collective,round,cpu_s,simulated_s,cpu_s_per_sim_s,ratio_to_ring" >"$out/cost.csv"
for round in $(seq 1 "$repeat"); do
    ring_cost=
    for name in "${order[@]}"; do
        dir=$out/$name-$round
        # shellcheck disable=SC2086 # the collective's arguments are words
        /usr/bin/time -f "%U %S" -o "$out/time.txt" env DDNN_DATA_DIR="${DDNN_DATA_DIR:-$here/data}" \
            LD_LIBRARY_PATH="$programs/..:$programs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            "$program" "${common[@]}" ${args[$name]} --outDir="$dir" >"$dir.log" 2>&1 ||
            die "$name, round $round: ddnn-datacenter failed (see $dir.log)"
        cpu=$(awk '{ print $1 + $2 }' "$out/time.txt")
        cost=$(awk -v c="$cpu" -v d="$duration" 'BEGIN { printf "%.2f", c / d }')
        [ "$name" = ring ] && ring_cost=$cost
        ratio=$(awk -v c="$cost" -v r="$ring_cost" 'BEGIN { printf "%.2f", c / r }')
        echo "$name,$round,$cpu,$duration,$cost,$ratio" | tee -a "$out/cost.csv"
    done
done
rm -f "$out/time.txt"
