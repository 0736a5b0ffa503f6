#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# estimate-vs-measured.sh: ddnn-campaign's cost estimate beside the CPU its runs took. Each
# campaign named runs whole (one run at a time unless --jobs says otherwise); the table
# gives, per campaign, its runs, the estimate, the runs' measured CPU (user and system of
# every run, from ddnn-campaign's own closing line) and their ratio, and whether the
# estimate holds within a factor 2 (the bound doc/speed.rst states).
#
# Usage:
#   tools/estimate-vs-measured.sh [--jobs=N] PROGRAMS_DIR OUTDIR CAMPAIGN...
#
#   PROGRAMS_DIR  the folder of ddnn-campaign and ddnn-datacenter (build/examples)
#   OUTDIR        created if missing; one campaign folder per CAMPAIGN (kept: a second call
#                 runs only what is missing, and its measured CPU is that of those runs) and
#                 estimate-vs-measured.csv: campaign,runs,estimate_cpu_s,measured_cpu_s,ratio
#   CAMPAIGN      campaign files, e.g. data/scenarios/seed-*.xml
#
# The reports (plots) are not drawn: the estimate is of the runs.
set -euo pipefail

die() {
    echo "estimate-vs-measured.sh: $*" >&2
    exit 1
}

jobs=1
while [ $# -gt 0 ]; do
    case $1 in
    --jobs=*) jobs=${1#*=} ;;
    --*) die "unknown option '$1' (expected --jobs=N)" ;;
    *) break ;;
    esac
    shift
done
[ $# -ge 3 ] || die "usage: tools/estimate-vs-measured.sh [--jobs=N] PROGRAMS_DIR OUTDIR CAMPAIGN..."
programs=$1 out=$2
shift 2
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs=$jobs: expected a whole number of cores, 1 or more"
[ -x "$programs/ddnn-campaign" ] || die "$programs: no ddnn-campaign in it (expected build/examples)"
for file in "$@"; do
    [ -f "$file" ] || die "$file: no such campaign file"
done
mkdir -p "$out"
table=$out/estimate-vs-measured.csv
echo "campaign,runs,estimate_cpu_s,measured_cpu_s,ratio" >"$table.part"
printf '%-32s %5s %12s %12s %9s\n' campaign runs estimate measured ratio
for file in "$@"; do
    name=$(basename "$file" .xml)
    log=$out/$name.log
    "$programs/ddnn-campaign" --campaign="$file" --jobs="$jobs" --report=false \
        --runner="$programs/ddnn-datacenter" --outDir="$out/$name" >"$log" 2>&1 ||
        die "$file: the campaign failed (log: $log)"
    # campaign: N runs: estimated E CPU-s, actual A CPU-s (R x); wall ...
    line=$(grep '^campaign: [0-9]* runs: estimated' "$log" | tail -1 || true)
    [ -n "$line" ] || die "$file: nothing ran (already finished in $out/$name?)"
    read -r runs estimate measured < <(sed -E \
        's/^campaign: ([0-9]+) runs: estimated ([0-9.e+]+) CPU-s, actual ([0-9.e+]+) CPU-s.*/\1 \2 \3/' \
        <<<"$line")
    ratio=$(awk -v e="$estimate" -v m="$measured" 'BEGIN { if (m > 0) printf "%.2f", e / m; else printf "NA" }')
    printf '%-32s %5s %12s %12s %8sx\n' "$name" "$runs" "$estimate" "$measured" "$ratio"
    echo "$name,$runs,$estimate,$measured,$ratio" >>"$table.part"
done
mv "$table.part" "$table"
echo "table: $table"
