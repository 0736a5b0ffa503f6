#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The report's evidence on a small campaign: one value on every axis but the priority, and a
# replayed flow schedule with 12 small flows and a single large one in the window. Sample
# counts appear in every summary and plot; the large class (1 flow, below min-flows = 10) is
# flagged, the small one (12) is not; the point is drawn against one parameter only.
# Usage: check-report-evidence.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
{
    echo "flow_id,from,to,size_bytes,start_ns"
    for i in $(seq 0 11); do echo "$i,$((i % 3)),$(((i + 1) % 3)),50000,$((6000000 + i * 2000000))"; done
    echo "12,0,2,12000000,6000000"
} >"$work/schedule.csv"
cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="200000" rcp="4" queue="priority"/>
    <background pattern="schedule" schedule="$work/schedule.csv"/>
    <run duration-s="0.06" warmup-s="0.005" cooldown-s="0.02" seed="1" min-flows="10"/>
  </scenario>
  <vary parameter="priority.training" values="same low"/>
</campaign>
XML
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
report=$out/report

value() { awk -F, -v key="$2" '$1 == key { print $2 }' "$1/summary.csv"; }
for run in "$out"/runs/*; do
    [ "$(value "$run" flows_large_completed)" = 1 ] && [ "$(value "$run" flows_large_few_samples)" = true ] ||
        fail "${run##*/}/summary.csv: expected 1 large flow, flagged"
    [ "$(value "$run" flows_small_completed)" = 12 ] && [ "$(value "$run" flows_small_few_samples)" = false ] ||
        fail "${run##*/}/summary.csv: expected 12 small flows, not flagged"
    n=$(value "$run" iterations_measured)
    [ "$n" -ge 3 ] && [ "$(value "$run" iterations_few_samples)" = false ] &&
        [ "$(value "$run" iteration_time_sd_s)" != NA ] ||
        fail "${run##*/}/summary.csv: expected >= 3 iterations with their spread, got $n"
done
# changes.csv: case,rcp,flow_rate,key,seeds,mean,min,max,ci_low,ci_high,method,verdict,vs_low,
# same_fewest,low_fewest,few,level
row() { grep ",$1," "$out/changes.csv" | cut -d, -f4-5,14-16; }
[ "$(row fct_large_mean_s)" = "fct_large_mean_s,1,1,1,true" ] ||
    fail "changes.csv: large flows: expected 1 seed, 1 flow each side, flagged; got $(row fct_large_mean_s)"
[ "$(row fct_small_mean_s)" = "fct_small_mean_s,1,12,12,false" ] ||
    fail "changes.csv: small flows: expected 12 flows each side, not flagged; got $(row fct_small_mean_s)"
[ "$(row util_training_measured)" = "util_training_measured,1,NA,NA,NA" ] ||
    fail "changes.csv: utilization has no sample count; got $(row util_training_measured)"
# The campaign's summary.csv carries the counts and flags of each run.
head -1 "$out/summary.csv" | tr , '\n' | grep -qx flows_large_few_samples ||
    fail "summary.csv: no flows_large_few_samples column"
# One value on every axis: one figure against a parameter, not three of the same point.
figures=$(cd "$report" && ls vs-*.png)
[ "$(wc -l <<<"$figures")" -eq 1 ] || fail "expected one figure against a parameter, got: $figures"
dat=$report/${figures%.png}.dat
awk '!/^#/ && NF { if ($19 != 1 || $17 != 12) { print; bad = 1 }; rows++ }
    END { exit bad || rows != 4 }' "$dat" ||
    fail "${dat##*/}: expected the large and small counts (1, 12) on 2 seed rows and 2 mean rows"
grep -q "fewer than 10 samples" "$report/${figures%.png}.gp" || fail "${figures%.png}.gp: no hollow points for few samples"
# The operating map and the priority effect: counts beside the values, the large class flagged.
read -r iteration small large flags <<<"$(awk '!/^#/ { print $12, $13, $14, $15 $16 $17 }' "$report/operating-boundary.dat")"
[[ $small == n=12/12 && $large == n=1/1,few && $iteration =~ ^n=[0-9]+/[0-9]+$ && $flags == 001 ]] ||
    fail "operating-boundary.dat: expected n=12/12, n=1/1,few and the flags 001; got $small $large $flags"
awk '!/^#/ && NF { if ($5 != 12 || $6 != 0 || $10 != 1 || $11 != 1) bad = 1; rows++ }
    END { exit bad || rows != 1 }' "$report/priority-effect.dat" ||
    fail "priority-effect.dat: expected the small flows' 12 unflagged and the large flow's 1 flagged"
grep -q "n=1, few samples" "$report/fct-cdf.gp" || fail "fct-cdf.gp: the single large flow is not annotated"
grep -q "n=12)" "$report/fct-cdf.gp" || fail "fct-cdf.gp: the small flows' count is missing"
grep -q "outside the window, not counted" "$report/fct-difference.gp" ||
    fail "fct-difference.gp: flows outside the window are not drawn apart"
echo "report evidence: counts in summaries and plots, the single large flow flagged, one figure"
