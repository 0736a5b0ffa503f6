#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Campaigns spread over machines: the --list commands run under GNU parallel through its
# multi-machine path (--sshloginfile, with ':' for this machine), and the SLURM job array
# that --slurm writes (each index 1..N runs one distinct run; N+1 is refused); in both cases
# the runner then finds every run finished and reports them as it would its own.
# Usage: check-campaign-scale-out.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
campaign=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >"$work/campaign.xml" <<'XML'
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training compute-ms="8" queue="priority" transport="ideal"/>
    <background flow-rate="150"/>
    <run duration-s="0.04" warmup-s="0.005" cooldown-s="0.005" seed="5" min-iterations="0"/>
  </scenario>
  <vary parameter="priority.training" values="same low"/>
</campaign>
XML
report() { # OUT-DIR: the runner finds every run finished and writes the report
    "$campaign" --campaign="$work/campaign.xml" --outDir="$1" 2>"$1.report.log" ||
        fail "the report failed: $(tail -3 "$1.report.log")"
    grep -q "2 runs, 2 already finished, 0 to run" "$1.report.log" ||
        fail "the runner did not take the runs as finished: $(cat "$1.report.log")"
    [ "$(wc -l <"$1/summary.csv")" -eq 3 ] || fail "$1/summary.csv: expected a header and 2 rows"
}

# GNU parallel, through its remote-machine code path with the local machine as the host.
"$campaign" --campaign="$work/campaign.xml" --outDir="$work/parallel" --list >"$work/runs.txt"
[ "$(wc -l <"$work/runs.txt")" -eq 2 ] || fail "--list: expected 2 commands"
printf ':\n' >"$work/hosts.txt"
parallel --will-cite --sshloginfile "$work/hosts.txt" --jobs 2 <"$work/runs.txt" ||
    fail "GNU parallel failed"
report "$work/parallel"

# A SLURM job array, each index run as SLURM would run it.
"$campaign" --campaign="$work/campaign.xml" --outDir="$work/slurm" --slurm="$work/array.sh" \
    2>"$work/slurm.log"
grep -qx '#SBATCH --array=1-2' "$work/array.sh" || fail "array.sh: no '#SBATCH --array=1-2'"
[ "$(wc -l <"$work/array.sh.runs")" -eq 2 ] || fail "array.sh.runs: expected 2 runs"
for index in 1 2; do
    SLURM_ARRAY_TASK_ID=$index sh "$work/array.sh" || fail "array index $index failed"
done
if SLURM_ARRAY_TASK_ID=3 sh "$work/array.sh" 2>"$work/index3.log"; then
    fail "array index 3 (of 2) was not refused"
fi
report "$work/slurm"
echo "GNU parallel (--sshloginfile) and a SLURM array ran the campaign; the runner reported it"
