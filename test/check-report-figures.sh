#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The report's thesis figures from a small campaign (R_cp_to_nw 2 and 4 x 100 and 200 flows/s x
# same and low x seeds 1 and 2, a tiny model): one figure against the flow rate per R, against
# R per flow rate and per R_p_to_hrvd (eq. 5.5, from each run's expected loads); each seed point
# is its run's summary value, text for text (NA where the run has no sample); each mean is the
# mean of the seeds that have a value, NA when none has; a group of one point gets an x axis
# wider than the point; the per-flow FCT difference is, for every flow, low minus same as the
# two runs' flows.csv give it, for the most loaded cell's first seed, and its allreduce marks
# are the runs' buffers.csv starts.
# Usage: check-report-figures.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
# Runs of 30 ms hold ~15 iterations of the tiny model.
cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="200000" rcp="4" queue="priority"/>
    <background flow-rate="100"/>
    <run duration-s="0.03" warmup-s="0.005" cooldown-s="0.005" seed="1"/>
  </scenario>
  <vary parameter="training.rcp" values="2 4"/>
  <vary parameter="background.flow-rate" values="100 200"/>
  <vary parameter="priority.training" values="same low"/>
  <vary parameter="run.seed" values="1 2"/>
</campaign>
XML
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
report=$out/report

value() { # RUN-DIR KEY: the run's summary value
    awk -F, -v key="$2" '$1 == key { print $2 }' "$1/summary.csv"
}

# The figures each run belongs to, named as the report names them (three digits: %.3g).
expected=$(for run in "$out"/runs/*; do
    t=$(value "$run" util_training_expected) b=$(value "$run" util_background_expected)
    rate=$(sed -n 's/.*flow-rate=\([0-9.]*\)_.*/\1/p' <<<"${run##*/}")
    awk -v t="$t" -v b="$b" -v rate="$rate" 'BEGIN {
        printf "vs-flow-rate-rcp-%.3g\nvs-rcp-flow-rate-%.12g\nvs-rcp-rph-%.3g\n", 1 / t, rate, b / t }'
done | sort -u)
[ "$(wc -l <<<"$expected")" -eq 7 ] || fail "expected 2 + 2 + 3 figures, computed: $expected"
for stem in $expected fct-difference; do
    for ext in png dat gp; do
        [ -s "$report/$stem.$ext" ] || fail "missing or empty: report/$stem.$ext"
    done
done
extra=$(cd "$report" && ls vs-*.png | sed 's/\.png$//' | sort | comm -13 <(echo "$expected") -)
[ -z "$extra" ] || fail "figures of no run's group: $extra"

# Constant R_p_to_hrvd groups runs of different R: 2 at 200 flows/s and 4 at 100 flows/s.
rph=$(awk -v t=0.5 -v b="$(value "$out/runs/rcp=2_flow-rate=200_training=same_seed=1" \
    util_background_expected)" 'BEGIN { printf "%.3g", b / t }')
rows=$(awk '!/^#/ && NF && $5 != "mean" { print $2 "@" $3 }' "$report/vs-rcp-rph-$rph.dat" |
    sort -u | tr '\n' ' ')
[ "$rows" = "2@200 4@100 " ] || fail "vs-rcp-rph-$rph.dat: expected R=2@200 and R=4@100, got $rows"

# Every run's seed point, text for text, in each of its three figures; the leftover is
# 1 - training - background. Then every mean row against its seeds.
keys="fct_small_mean_s fct_medium_mean_s fct_large_mean_s fct_small_p99_s fct_medium_p99_s
      fct_large_p99_s iteration_time_mean_s util_training_measured util_background_measured"
checked=0
for run in "$out"/runs/*; do
    name=${run##*/}
    priority=$(value "$run" training_priority)
    seed=${name##*_seed=}
    t=$(value "$run" util_training_expected) b=$(value "$run" util_background_expected)
    rate=$(sed -n 's/.*flow-rate=\([0-9.]*\)_.*/\1/p' <<<"$name")
    want=$(for key in $keys; do value "$run" "$key"; done | tr '\n' ' ')
    for stem in $(awk -v t="$t" -v b="$b" -v rate="$rate" 'BEGIN {
        printf "vs-flow-rate-rcp-%.3g vs-rcp-flow-rate-%.12g vs-rcp-rph-%.3g", 1 / t, rate, b / t }'); do
        got=$(awk -v p="$priority" -v t="$t" -v rate="$rate" -v seed="$seed" '
            /^# training at / { block = $4 ($6 == "a" ? " runs" : " mean") }
            !/^#/ && NF && block == p " runs" && $2 == sprintf("%.3g", 1 / t) && $3 == rate &&
            $5 == seed {
                for (i = 6; i <= 14; ++i) printf "%s ", $i
                if ($13 == "NA" || $14 == "NA") { if ($15 != "NA") print "leftover-not-NA" }
                else if ((d = $15 - (1 - $13 - $14)) > 1e-9 || d < -1e-9) print "leftover-wrong"
                ++n }
            END { if (n != 1) print "rows:" n }' "$report/$stem.dat")
        [ "$got" = "$want" ] || fail "$stem.dat, run $name:
  got  $got
  want $want"
        checked=$((checked + 1))
    done
done
[ "$checked" -eq 48 ] || fail "checked $checked seed points, expected 16 runs x 3 figures"
for dat in "$report"/vs-*.dat; do
    awk '/^# training at / { p = $4; mean = $6 != "a" }
        !/^#/ && NF && !mean { for (i = 6; i <= 15; ++i) if ($i != "NA") {
            sum[p, $1, i] += $i; n[p, $1, i]++ } }
        !/^#/ && NF && mean { rows++; for (i = 6; i <= 15; ++i) {
            if (!n[p, $1, i]) { if ($i != "NA") { print FILENAME ": a mean of no sample: " $0; bad = 1 } }
            else if ((d = $i - sum[p, $1, i] / n[p, $1, i]) > 1e-9 || -d > 1e-9) {
                print FILENAME ": column " i " is not the mean of its seeds: " $0; bad = 1 } } }
        END { if (!rows) print FILENAME ": no mean rows"; exit bad || !rows }' "$dat" ||
        fail "means over seeds"
done
# No large flow completes in runs this short: NA in the data, a note instead of a panel.
grep -q "no sample (NA): no flow of this class completed" "$report/vs-flow-rate-rcp-2.gp" ||
    fail "vs-flow-rate-rcp-2.gp: the large flows' empty panel does not say why"
# A group of one point (R_p_to_hrvd of R=2 at 100 flows/s alone): its x axis spans a factor
# of about 2 around it, not +-1 %.
single=$(awk -v b="$(value "$out/runs/rcp=2_flow-rate=100_training=same_seed=1" \
    util_background_expected)" 'BEGIN { printf "%.3g", b / 0.5 }')
awk '/^set xrange/ { line = $0; sub(/^set xrange \[/, ""); sub(/\]$/, ""); split($0, r, ":")
        if (r[2] / r[1] < 1.9) { print line; exit 1 }
        found = 1 }
    END { if (!found) exit 1 }' "$report/vs-rcp-rph-$single.gp" ||
    fail "vs-rcp-rph-$single.gp: a single point's x axis is too narrow"

# The paired FCT differences: the most loaded cell (R=2, 200 flows/s), its first seed.
diff=$report/fct-difference.dat
same=$(sed -n 's/^# same run: //p' "$diff") low=$(sed -n 's/^# low run: //p' "$diff")
[ "$same" = "$out/runs/rcp=2_flow-rate=200_training=same_seed=1" ] &&
    [ "$low" = "$out/runs/rcp=2_flow-rate=200_training=low_seed=1" ] ||
    fail "fct-difference.dat: expected the runs of R=2, 200 flows/s, seed 1; got $same and $low"
awk -F, 'FNR == 1 { file++; next }
    $8 == "true" { fct[file, $1] = $7 }
    file == 3 && NF == 7 && !/^#/ {
        if (!((1, $2) in fct) || !((2, $2) in fct)) { print "flow " $2 " did not complete in both"; bad = 1 }
        d = $6 - (fct[2, $2] - fct[1, $2])
        if (d > 1e-12 || d < -1e-12 || $4 != fct[1, $2] || $5 != fct[2, $2]) {
            print "flow " $2 ": " $0 " vs same " fct[1, $2] " low " fct[2, $2]; bad = 1 }
        paired++ }
    END { for (k in fct) { split(k, f, SUBSEP); if (f[1] == 1 && (2, f[2]) in fct) both++ }
        if (paired != both || !paired) { print paired " flows plotted, " both " completed in both"; bad = 1 }
        exit bad }' "$same/flows.csv" "$low/flows.csv" FS=' ' "$diff" ||
    fail "fct-difference.dat: a difference is not low minus same"
marks() { # PRIORITY: the allreduce starts of that run in fct-difference.dat
    awk -v p="$1" '/^# allreduce starts/ { on = ($0 ~ "at " p " priority") ; next }
        /^#/ { on = 0 } on && NF { n++ } END { print n + 0 }' "$diff"
}
for priority in same low; do
    dir=$same
    [ "$priority" = low ] && dir=$low
    want=$(awk -F, 'NR > 1 && $7 != "" { n++ } END { print n + 0 }' "$dir/buffers.csv")
    [ "$want" -gt 0 ] && [ "$(marks $priority)" -eq "$want" ] ||
        fail "fct-difference.dat: $(marks $priority) allreduce starts at $priority, buffers.csv has $want"
done
# One iteration in detail: worker 0's 4 layers forward in order, then backward in reverse, one
# compute at a time, the first forward at the iteration's start.
awk 'FNR == 1 && NR > 1 { file = 2 } /^#/ { next }
    !NF { if (prev) block++; prev = 0; next } { prev = 1 }
    block == 0 { n0++; if ($2 != n0 - 1) bad = "forward layer " $2 " at row " n0
                 if (n0 == 1 && ($1 < -1e-9 || $1 > 1e-9)) bad = "first forward at " $1 " ms" }
    block == 1 { n1++; if ($2 != 4 - n1) bad = "backward layer " $2 " at row " n1 }
    block <= 1 { if (last != "" && $1 < last - 1e-6) bad = "layer " $2 " starts at " $1 " before " last
                 last = $1 + $3 }
    END { if (n0 != 4 || n1 != 4) bad = bad " " n0 " forward and " n1 " backward rows"
          if (bad) { print bad; exit 1 } }' "$report/iteration-detail.dat" ||
    fail "iteration-detail.dat: the layers of one iteration are not there in order"
echo "report figures: 7 figures against a parameter, $checked seed points and the paired FCT differences checked"
