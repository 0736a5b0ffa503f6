#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every documented choice runs: each value of each choice option that a program's --help
# ("one of ...") or the README (--option=a|b|c) names, once alone with what it needs beside
# it, then the combinations the README describes. Each run is tiny (two workers, a two-layer
# profile at 1 Gbit/s): the point is that the program accepts the value and finishes, not
# what it measures.
# Usage: check-documented-choices.sh PROGRAMS-DIR SOURCE-DIR WORK-DIR
set -euo pipefail
programs=$1 readme=$2/README.md profile=$2/test/data/two-layer-profile.csv work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

base=(--workers=2 --rcp=4 --profile="$profile" --dataRate=1Gbps --progress=never)
training_base=("${base[@]}" --iterations=1)
datacenter_base=("${base[@]}" --durationS=0.02 --warmupS=0 --cooldownS=0)

# A schedule of two background flows, for --backgroundPattern=schedule.
printf 'flow_id,from,to,size_bytes,start_ns\n0,0,1,20000,1000000\n1,1,0,5000,2000000\n' \
    >"$work/schedule.csv"
# The oracle learns from a run with a priority policy at low priority.
"$programs/ddnn-training" "${training_base[@]}" --priorityPolicy=first-k --trainingPriority=low \
    --outDir="$work/oracle-reference" >"$work/oracle-reference.log" 2>&1 ||
    fail "the oracle's reference run: $(tail -1 "$work/oracle-reference.log")"

# What a value needs beside it to be valid, as the help of the options it names says.
companions() {
    case $1=$2 in
    parameterServerHosts=dedicated) echo --collective=parameter-server --workers=3 --jobWorkers=2 ;;
    distribution=multicast)
        echo --collective=parameter-server --parameterServerHosts=dedicated --workers=3 --jobWorkers=2 ;;
    priorityPolicy=mapped) echo --bufferTosMap=0=16 ;;
    priorityPolicy=oracle) echo --oracleReference="$work/oracle-reference/buffers.csv" --trainingPriority=low ;;
    priorityPolicy=slack-adaptive) echo --trainingPriority=low ;; # it yields at low priority
    band=3) echo --queueDisc=prio4 ;;
    backgroundPattern=schedule) echo --schedule="$work/schedule.csv" ;;
    placement=0,5,9) echo --topology=leaf-spine --leaves=2 --serversPerLeaf=5 --workers=3 ;;
    esac
}

# Options documented as choices but not runnable in this build, each with why.
skipped() {
    case $1 in
    mpiSync) echo "--mpiSync needs an ns-3 built with MPI (./ddnn mpi check runs both values)" ;;
    *) return 1 ;;
    esac
}

readme_choices=$(grep -o -- '--[a-zA-Z]*=[A-Za-z0-9,.-]*\(|[A-Za-z0-9,.-]*\)\+' "$readme" |
    sed 's/^--//; s/=/ /; s/|/ /g' | sort -u)
[ -n "$readme_choices" ] || fail "README: no --option=a|b choices found"

runs=0
run() { # PROGRAM LABEL ARGS...
    local program=$1 label=$2
    shift 2
    local out=$work/$program-$runs
    runs=$((runs + 1))
    "$programs/$program" "$@" --outDir="$out" >"$out.log" 2>&1 ||
        fail "$program $label: $(tail -1 "$out.log")"
    [ -f "$out/summary.csv" ] || [ -f "$out/compare.csv" ] || fail "$program $label: no results"
}

for program in ddnn-training ddnn-datacenter; do
    if [ $program = ddnn-training ]; then args=("${training_base[@]}"); else args=("${datacenter_base[@]}"); fi
    help=$("$programs/$program" --help 2>&1)
    help_choices=$(grep -o -- '--[a-zA-Z]*:.*; one of [^;]*' <<<"$help" |
        sed 's/^--//; s/:.*; one of / /; s/,//g')
    [ -n "$help_choices" ] || fail "$program --help: no 'one of' choices found"
    checked=0
    while read -r option value; do
        # A README choice of an option this program does not take belongs to another one.
        grep -q -- "--$option:" <<<"$help" || continue
        if reason=$(skipped "$option"); then
            echo "$program: skipped ($value): $reason"
            continue
        fi
        # shellcheck disable=SC2046 # the companions are separate words by design
        run $program "--$option=$value" "${args[@]}" $(companions "$option" "$value") "--$option=$value"
        checked=$((checked + 1))
    done < <(printf '%s\n%s\n' "$help_choices" "$readme_choices" |
        awk '{ for (i = 2; i <= NF; ++i) print $1, $i }' | sort -u)
    echo "$program: $checked documented choices run"
done

# The combinations the README describes (its ddnn-training and ddnn-datacenter paragraphs).
combinations=(
    "--collective=in-network-aggregation --aggregationSlots=8 --aggregationSlotBytes=512 --aggregationMemory=65536 --fallback=ring-allreduce"
    "--collective=parameter-server --parameterServers=2"
    "--syncer=network --syncCycleUs=500"
    "--priorityPolicy=first-k --highPriorityBuffers=1"
    "--priorityPolicy=slack-adaptive --slackMargin=0.1 --slackLearnRate=true --trainingPriority=low"
    "--queueDisc=prio-red --ecnThresholdPackets=20 --congestionControl=Dctcp"
    "--queueDisc=weighted-bands --bandWeights=9 1 1"
    "--lossRate=0.01 --addedDelayUs=5 --rateCap=100Mbps --impairedServers=0"
    "--topology=leaf-spine --leaves=2 --serversPerLeaf=2 --spines=1 --fabricDataRate=2Gbps --placement=spread"
    "--topology=fat-tree --fatTreeK=4 --placement=0,5"
    "--queue=priority --barrier=false --trainingPriority=high --band=1"
)
for program in ddnn-training ddnn-datacenter; do
    if [ $program = ddnn-training ]; then args=("${training_base[@]}"); else args=("${datacenter_base[@]}"); fi
    for combination in "${combinations[@]}"; do
        # One option per "--" (a value may hold blanks, as --bandWeights does).
        mapfile -t extra < <(sed 's/ --/\n--/g' <<<"$combination")
        run $program "$combination" "${args[@]}" "${extra[@]}"
    done
    echo "$program: ${#combinations[@]} README combinations run"
done
run ddnn-datacenter "--compare" "${datacenter_base[@]}" --compare
[ -f "$work/ddnn-datacenter-$((runs - 1))/compare.csv" ] || fail "ddnn-datacenter --compare: no compare.csv"
echo "documented choices: $runs runs, each finished with its results"
