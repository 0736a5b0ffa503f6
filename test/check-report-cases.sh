#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A campaign with a dimension of cases not named "policy" (two transports, each at same and low
# priority, seeds 1 and 2) is reported per case: changes.csv has each case's rows, labelled;
# each case has its own report folder whose figures carry the case in their title; the answer
# table names both; nothing pools the two (their changes differ). With two seeds the changes
# have an interval over the seeds.
# Usage: check-report-cases.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
cat >"$work/campaign.xml" <<XML
<campaign version="1">
$(tiny_scenario)
  <vary parameter="priority.training" values="same low"/>
  <vary parameter="run.seed" values="1 2"/>
  <vary name="stack">
    <case name="tcp"><set parameter="training.transport" value="tcp"/></case>
    <case name="ideal"><set parameter="training.transport" value="ideal"/></case>
  </vary>
</campaign>
XML
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 >"$work/answer" 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
for stack in tcp ideal; do
    row=$(grep "^stack=$stack,.*,iteration_time_mean_s," "$out/changes.csv") ||
        fail "changes.csv: no iteration row of case stack=$stack"
    IFS=, read -r _ _ _ _ seeds mean _ _ low high method verdict _ <<<"$row"
    [[ $seeds == 2 && $method == seeds && $low != NA && $high != NA && -n $verdict ]] ||
        fail "changes.csv: stack=$stack: expected 2 seeds with an interval over them and a verdict, got $row"
    [ "$(awk -v l="$low" -v m="$mean" -v h="$high" 'BEGIN { print (l <= m && m <= h) }')" = 1 ] ||
        fail "changes.csv: stack=$stack: the mean $mean lies outside its interval [$low, $high]"
    eval "mean_$stack=$mean"
    dir=$out/report/case-stack=$stack
    for figure in priority-effect operating-boundary fct-cdf small-fct-cdf; do
        [ -s "$dir/$figure.png" ] || fail "no $figure.png for case stack=$stack"
        grep -q "title 'stack=$stack: " "$dir/$figure.gp" || fail "$figure.gp of stack=$stack does not name its case"
    done
    grep -q "^stack=$stack " "$work/answer" || fail "the answer table has no row of case stack=$stack"
done
# shellcheck disable=SC2154 # set by eval above
[ "$mean_tcp" != "$mean_ideal" ] || fail "both cases give the same change ($mean_tcp): pooled?"
[ ! -e "$out/report/priority-effect.png" ] || fail "a pooled priority-effect.png beside the cases' own"
echo "report cases: two cases reported apart (iteration change $mean_tcp % over TCP, $mean_ideal % ideal)"
