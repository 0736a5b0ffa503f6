#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The commands ddnn-campaign generates (--list, the SLURM array of --slurm, the report's gnuplot
# scripts) quote every value the user gave: with the campaign file, the output folder, the runner and the array script
# in folders whose names hold $(...), backquotes, quotes and blanks, the array script run as
# SLURM would run it (SLURM_ARRAY_TASK_ID, no sbatch needed) and the --list lines run by sh
# hand the runner exactly its arguments and execute nothing else. A newline, which no
# one-line command can carry, is refused in one line before anything is written; in the
# array script's own path it is quoted too.
# Usage: check-campaign-quoting.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
campaign=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
# Each would create $work/pwned-N if a shell ever ran it (${IFS}: a blank without one).
weird="$work/a\$(touch\${IFS}$work/pwned-1)\`touch\${IFS}$work/pwned-2\`'q'\"d\";touch\${IFS}$work/pwned-3;#"
# Blanks too, once the programs take a value with blanks whole (ns-3's parser stops at one).
probe="$work/with blank"
mkdir -p "$probe"
whole=
if "$campaign" --campaign="$probe/none.xml" 2>&1 | grep -qF "$probe/none.xml: cannot open"; then
    whole=1
    weird="$weird and blanks"
else
    echo "note: ddnn-campaign cuts option values at a blank; the paths hold no blank"
fi
mkdir -p "$weird"
cat >"$weird/campaign.xml" <<'XML'
<campaign version="1">
  <scenario version="1"><topology workers="3"/><run duration-s="0.01" warmup-s="0" cooldown-s="0" min-iterations="0"/></scenario>
  <vary parameter="run.seed" values="1 2"/>
</campaign>
XML
# A fake runner: records its arguments, one per line, as the run's commands hand them over.
cat >"$weird/runner" <<EOF2
#!/bin/sh
for arg in "\$@"; do printf '%s\n' "\$arg"; done >>"$work/arguments"
EOF2
chmod +x "$weird/runner"
check_arguments() { # WHAT OUT-DIR: each run's three arguments, whole
    local expected
    expected=$(for seed in 1 2; do
        printf '%s\n' "--scenario=$2/runs/seed=$seed/scenario.xml" "--outDir=$2/runs/seed=$seed" "--progress=never"
    done)
    [ "$(cat "$work/arguments")" = "$expected" ] || fail "$1: the runner got other arguments: $(cat "$work/arguments")"
    rm -f "$work/arguments"
}
no_command_ran() {
    [ -z "$(find "$work" -maxdepth 1 -name 'pwned-*')" ] || fail "$1 executed a command hidden in a path"
}

out="$weird/out"
# --list, each line run by sh as GNU parallel would
"$campaign" --campaign="$weird/campaign.xml" --outDir="$out" --runner="$weird/runner" --list >"$work/list.txt"
[ "$(wc -l <"$work/list.txt")" -eq 2 ] || fail "--list: expected 2 lines"
while IFS= read -r line; do sh -c "$line"; done <"$work/list.txt"
no_command_ran "--list"
check_arguments "--list" "$out"

# --slurm, with a newline in the script's own path too, each array task run as SLURM would
array="$weird/array"
[ -z "$whole" ] || array="$array
touch $work/pwned-4.sh"
"$campaign" --campaign="$weird/campaign.xml" --outDir="$out" --runner="$weird/runner" --slurm="$array" 2>/dev/null
for task in 1 2; do SLURM_ARRAY_TASK_ID=$task sh "$array"; done
SLURM_ARRAY_TASK_ID=3 sh "$array" 2>"$work/task-3.log" && fail "--slurm: task 3 of 2 ran"
grep -qF "no run 3 in $array.runs" "$work/task-3.log" || fail "--slurm: task 3: $(cat "$work/task-3.log")"
no_command_ran "--slurm"
check_arguments "--slurm" "$out"

# A real campaign in that folder, its report rendered by gnuplot (whose scripts name the
# folder, single-quoted, where gnuplot substitutes no backquoted command)
cat >"$weird/real.xml" <<'XML'
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
"$campaign" --campaign="$weird/real.xml" --outDir="$weird/real" --jobs=2 2>"$work/real.log" ||
    fail "the campaign in $weird failed: $(tail -3 "$work/real.log")"
[ -s "$weird/real/summary.csv" ] && [ -n "$(find "$weird/real/report" -name '*.png')" ] ||
    fail "the report in $weird is missing"
no_command_ran "the report"

# A newline (or another control character) in a path that goes into the commands: one
# line, nothing written
control=$'\x01'
[ -z "$whole" ] || control=$'\n'
for option in outDir runner; do
    bad="$work/x${control}touch$work/pwned-5"
    args=(--campaign="$weird/campaign.xml" --outDir="$out" --runner="$weird/runner" --list)
    [ $option = outDir ] && args[1]=--outDir="$bad" || args[2]=--runner="$bad"
    status=0
    "$campaign" "${args[@]}" >/dev/null 2>"$work/err.txt" || status=$?
    [ $status -eq 1 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] &&
        grep -q "^ddnn-campaign: error: --$option=.*x?touch.*: expected a path without control characters" "$work/err.txt" ||
        fail "--$option with a newline: status $status, $(cat "$work/err.txt")"
    [ ! -e "$work/x" ] && [ ! -e "$bad" ] || fail "--$option with a newline: a folder was written"
done
no_command_ran "the refused commands"
echo "generated commands: every value quoted, nothing executed"
