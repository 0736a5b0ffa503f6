#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A scaled replica (--scale, doc/user.rst "Scaled replicas") of one small cell against the cell
# at full scale: the model's bytes and each worker's bytes per iteration fall by exactly p, the
# compute time and the training load (R_cp_to_nw) stay, the training's packets per iteration
# fall by about p and the background's flows too; the replica's outputs say that it is one
# (summary.csv's scale, scenario.xml, the run's first line), the full-scale run's do not. Then
# a campaign varying run.scale writes scale-validation.csv: each scaled cell's changes beside
# the full-scale interval.
# Usage: check-scaled-replica.sh DDNN-DATACENTER DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
program=$1
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh" "$2" "$3"
args=(--workers=3 --profile="$work/tiny-profile.csv" --fusionBytes=200000 --rcp=4 --flowRate=20
    --dataRate=1Gbps --durationS=1 --warmupS=0.1 --cooldownS=0.1 --progress=never)
for scale in 1 0.25; do
    "$program" "${args[@]}" --scale=$scale --outDir="$work/$scale" >"$work/$scale.log" 2>&1 ||
        fail "the run at --scale=$scale failed: $(tail -2 "$work/$scale.log")"
done
key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$work/$1/summary.csv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a / b }'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
# Marked: the replica's outputs, and only the replica's.
[ "$(key 0.25 scale)" = 0.25 ] || fail "the replica's summary.csv has no scale,0.25"
[ -z "$(key 1 scale)" ] || fail "the full-scale summary.csv has a scale key"
grep -q 'scale="0.25"' "$work/0.25/scenario.xml" || fail "the replica's scenario.xml has no scale"
head -1 "$work/0.25.log" | grep -q '^scaled replica: .* x 0.25' ||
    fail "the replica's first line does not say it is one: $(head -1 "$work/0.25.log")"
head -1 "$work/0.25.log" | grep -q 'outside what the validation ran: a scale below 0.5' ||
    fail "the replica's first line does not say that 0.25 is below the validated scales"
if grep -q 'scaled replica' "$work/1.log"; then fail "the full-scale run says it is a replica"; fi
# Bytes: exactly p (each of the 4 layers of 100 kB becomes 25 kB, the buffers stay).
for k in model_bytes bytes_per_worker_per_iteration; do
    within "$(ratio "$(key 0.25 $k)" "$(key 1 $k)")" 0.249999 0.250001 ||
        fail "$k: $(key 0.25 $k) in the replica against $(key 1 $k), not x 0.25"
done
# What the replica keeps: the compute time and the training load (R_cp_to_nw = 4).
for k in compute_time_s util_training_expected; do
    [ "$(key 0.25 $k)" = "$(key 1 $k)" ] || fail "$k: $(key 0.25 $k) in the replica, $(key 1 $k) at full scale"
done
# Packets: the training's per measured iteration fall by about p (a window's edges move it a
# few percent); the background's flows by about p (a different draw of the same CDF).
per_iteration() { ratio "$(key "$1" packets_uplinks_training)" "$(key "$1" iterations_measured)"; }
training=$(ratio "$(per_iteration 0.25)" "$(per_iteration 1)")
within "$training" 0.2 0.3 || fail "training packets per iteration: x $training in the replica, expected about 0.25"
flows=$(ratio "$(key 0.25 flows_scheduled)" "$(key 1 flows_scheduled)")
within "$flows" 0.1 0.45 || fail "background flows: x $flows in the replica, expected about 0.25"
# A campaign over scales: the replica's case compared with the full-scale one, cell by cell.
cat >"$work/campaign.xml" <<XML
<campaign version="1">
$(tiny_scenario)
  <vary parameter="run.scale" values="1 0.5"/>
  <vary parameter="priority.training" values="same low"/>
  <vary parameter="run.seed" values="1 2"/>
</campaign>
XML
"$campaign" --campaign="$work/campaign.xml" --outDir="$work/campaign" --jobs=2 >"$work/answer" 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
table=$work/campaign/scale-validation.csv
[ -f "$table" ] || fail "a campaign varying run.scale wrote no scale-validation.csv"
rows=$(awk -F, 'NR > 1 && $1 == "run.scale=0.5" && $2 == 0.5' "$table" | wc -l)
[ "$rows" = 7 ] || fail "scale-validation.csv: $rows rows of the replica's cell, expected 7 figures"
awk -F, 'NR > 1 && !($14 == "yes" || $14 == "no" || $14 == "NA") { exit 1 }' "$table" ||
    fail "scale-validation.csv: an inside_full_interval other than yes, no or NA"
row=$(grep ',iteration_time_mean_s,' "$table")
IFS=, read -r _ _ _ _ _ fseeds fmean flow fhigh sseeds smean _ _ inside _ <<<"$row"
[[ $fseeds == 2 && $sseeds == 2 && $flow != NA && $fhigh != NA && $smean != NA ]] ||
    fail "scale-validation.csv: expected 2 seeds on each side and an interval, got $row"
expected=$(awk -v m="$smean" -v l="$flow" -v h="$fhigh" 'BEGIN { print (m >= l && m <= h) ? "yes" : "no" }')
[ "$inside" = "$expected" ] || fail "scale-validation.csv: inside is $inside for $smean in [$flow, $fhigh]"
grep -q '^  run.scale=0.5: [0-9]* of [0-9]* changes inside the full-scale interval' "$work/answer" ||
    fail "the campaign's answer has no line for the replica: $(tail -3 "$work/answer")"
echo "scaled replica: bytes x 0.25 exactly, training packets per iteration x $training, flows x $flows; campaign: $rows figures compared"
