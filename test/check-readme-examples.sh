#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The README's examples, as written, give a numeric training cost: its first-plot campaign
# (the heredoc of first.xml, run as ./ddnn campaign runs it) and every ddnn-datacenter command
# of its code blocks. The only changes: outputs go to WORK-DIR, no progress line, and the
# two-jobs leaf-spine example (16 servers, the costliest) is run at half its length (its
# <run> times halved: job 2, from 0.1 s on, still has 0.35 s of window for its 94 ms ideal
# iterations).
# Usage: check-readme-examples.sh README PROGRAMS-DIR WORK-DIR
set -euo pipefail
readme=$1 programs=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
number() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?$ ]]; }

# The first plot: the heredoc between "cat > first.xml <<'XML'" and "XML".
awk '/^cat > first.xml <<.XML.$/ { on = 1; next } /^XML$/ { on = 0 } on' "$readme" >"$work/first.xml"
grep -q '<campaign' "$work/first.xml" || fail "README: no first.xml heredoc"
grep -q '^\./ddnn campaign first.xml' "$readme" || fail "README: the first plot does not run ./ddnn campaign first.xml"
(cd "$work" && "$programs/ddnn-campaign" --campaign=first.xml --outDir="$work/campaign-first") \
    >"$work/first.log" 2>&1 || fail "first plot: $(tail -2 "$work/first.log")"
cost=$(awk -F, '$4 == "iteration_time_mean_s" { print $6 }' "$work/campaign-first/changes.csv")
number "$cost" || fail "first plot: changes.csv gives the iteration time's change as '$cost'"
ls "$work/campaign-first/report/"*.png >/dev/null || fail "first plot: no figures"
echo "first plot: training cost $cost %"

# Every ddnn-datacenter command of the README (continuation lines joined).
commands=$(awk '/^ *build\/examples\/ddnn-datacenter / || more {
        line = line $0; more = sub(/\\$/, "", line); if (!more) { print line; line = "" } }' "$readme" |
    sed 's/^ *//; s/  */ /g')
[ "$(wc -l <<<"$commands")" -ge 2 ] || fail "README: expected the --compare and the two-jobs commands, got: $commands"
n=0
while read -r -a argv; do
    n=$((n + 1))
    out=$work/example-$n
    args=()
    scale=1
    for a in "${argv[@]:1}"; do
        case $a in
        --outDir=*) args+=("--outDir=$out") ;;
        --scenario=*two-jobs-leaf-spine.xml) args+=("$a" --durationS=0.5 --warmupS=0.1 --cooldownS=0.05) scale=0.5 ;;
        *) args+=("$a") ;;
        esac
    done
    (cd "$work" && "$programs/ddnn-datacenter" "${args[@]}" --progress=never) >"$out.log" 2>&1 ||
        fail "${argv[*]}: $(tail -2 "$out.log")"
    if [ -f "$out/compare.csv" ]; then
        cost=$(awk -F, '$1 == "iteration_time_mean_s" { print $4 }' "$out/compare.csv")
        number "$cost" || fail "${argv[*]}: compare.csv gives the iteration time's change as '$cost'"
        echo "example $n (${argv[*]}): training cost $cost %"
    else
        for key in iteration_time_mean_s job2_iteration_time_mean_s; do
            time=$(awk -F, -v k=$key '$1 == k { print $2 }' "$out/summary.csv")
            [ -z "$time" ] || number "$time" || fail "${argv[*]}: summary.csv gives $key as '$time'"
        done
        echo "example $n (${argv[*]}, x$scale): iteration time $(awk -F, '$1 == "iteration_time_mean_s" { print $2 }' "$out/summary.csv") s"
    fi
done <<<"$commands"
