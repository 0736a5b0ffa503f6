#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-campaign --allocate on a tiny campaign of two cells and four seeds, two first: a cell
# without background (its two priorities run alike: a change of exactly 0, SAFE) stops at
# its first budget, and its other seeds never run; a loaded cell (a change of about +10 %
# whose two-seed interval, t with 1 degree of freedom, spans a threshold) gets more seeds,
# within the cap of four. allocation.csv says what each cell spent and why it stopped, and
# the report reads only the runs that ran.
# Usage: check-campaign-allocate.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="200000" rcp="4" queue="priority"/>
    <run duration-s="0.06" warmup-s="0.005" cooldown-s="0.02" seed="1"/>
  </scenario>
  <vary parameter="background.flow-rate" values="0.001 100"/>
  <vary parameter="priority.training" values="same low"/>
  <vary parameter="run.seed" values="1 2 3 4"/>
</campaign>
XML
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 --allocate >"$work/stdout" 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
grep -q -- "--allocate: expected at least .* (every cell's first 2 seed(s)), at most .* (every seed)" "$work/log" ||
    fail "no expected and worst-case cost in the estimate"
# allocation.csv: cell,seeds_given,seeds_cap,rounds,seeds_at_both_priorities,change,low,high,
# method,verdict,target,estimated_cpu_s,cpu_s,cpu_runs,stopped,why
row() { grep "^background.flow-rate=$1," "$out/allocation.csv"; }
IFS=, read -r _ given cap rounds both change _ _ _ verdict _ _ cpu runs stopped _ <<<"$(row 0.001)"
[[ $given == 2 && $cap == 4 && $rounds == 1 && $both == 2 && $change == 0 && $verdict == SAFE &&
    $stopped == decided && $runs == 4 && $cpu != NA ]] ||
    fail "the clear cell: expected 2 of 4 seeds, 1 round, SAFE, decided, 4 runs' CPU; got $(row 0.001)"
for seed in 3 4; do
    [ ! -e "$out/runs/flow-rate=0.001_training=same_seed=$seed" ] ||
        fail "the clear cell's seed $seed ran (or its folder was made)"
done
IFS=, read -r _ given cap rounds both _ _ _ _ verdict _ _ _ runs stopped _ <<<"$(row 100)"
[[ $given -gt 2 && $given -le 4 && $rounds == $((given - 1)) && $runs == $((2 * given)) ]] ||
    fail "the loaded cell: expected more than its first 2 seeds, at most 4; got $(row 100)"
[[ $stopped == decided && $verdict != INCONCLUSIVE || $stopped == cap && $given == 4 ]] ||
    fail "the loaded cell stopped neither decided nor at its cap: $(row 100)"
ran=$(ls "$out/runs" | wc -l)
[ "$ran" -eq $((4 + 2 * given)) ] || fail "expected $((4 + 2 * given)) run folders, found $ran"
[ "$(tail -n +2 "$out/summary.csv" | wc -l)" -eq "$ran" ] ||
    fail "summary.csv: expected the $ran runs that ran, no more"
grep -q "campaign: allocation over 2 cells: 1 decided on their first 2 seed(s)" "$work/log" ||
    fail "no allocation line: $(grep allocation "$work/log")"
echo "allocate: the clear cell stopped at 2 seeds, the loaded one got $given of 4 ($stopped, $verdict)"
