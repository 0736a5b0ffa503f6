#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A campaign of priority policies at a tiny size (two cells, one seed, a replayed schedule of
# small flows) from real runs: policies.csv holds each policy's slowdown and small-flow gain
# against the baseline case "same" of its cell, as computed here from the runs' own
# summaries; policy-map.csv names a policy (or none) per cell, its target not judged on one
# seed (NA: no interval); the trade-off plots and the
# policy map are drawn; the slack-adaptive runs record each buffer's time at each ToS; the
# oracle case learns from the all-low run of its own cell (case:low), and raises exactly the
# buffers that run shows late in at least half of their collectives.
# Usage: check-policy-report.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
{
    echo "flow_id,from,to,size_bytes,start_ns"
    for i in $(seq 0 23); do echo "$i,$((i % 3)),$(((i + 1) % 3)),50000,$((6000000 + i * 1000000))"; done
} >"$work/schedule.csv"
cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="100000" rcp="4" queue="priority"/>
    <background pattern="schedule" schedule="$work/schedule.csv"/>
    <run duration-s="0.04" warmup-s="0.005" cooldown-s="0.005" seed="1" min-flows="10"/>
  </scenario>
  <vary parameter="training.rcp" values="2 8"/>
  <vary name="policy">
    <case name="same"><set parameter="priority.training" value="same"/></case>
    <case name="low"><set parameter="priority.training" value="low"/></case>
    <case name="slack-10">
      <set parameter="priority.training" value="low"/>
      <set parameter="training.priority-policy" value="slack-adaptive"/>
      <set parameter="training.slack-margin" value="0.1"/>
    </case>
    <case name="oracle">
      <set parameter="priority.training" value="low"/>
      <set parameter="training.priority-policy" value="oracle"/>
      <set parameter="training.oracle-reference" value="case:low"/>
    </case>
    <case name="drr-30">
      <set parameter="priority.training" value="low"/>
      <set parameter="topology.queue-disc" value="weighted-bands"/>
      <set parameter="topology.band-weights" value="7 1 3"/>
    </case>
    <case name="least-slack-hybrid">
      <set parameter="topology.queue-disc" value="least-slack-hybrid"/>
    </case>
  </vary>
</campaign>
XML
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
value() { awk -F, -v key="$2" '$1 == key { print $2 }' "$out/runs/$1/summary.csv"; }
# policies.csv: rcp,flow_rate,policy,seeds,slowdown mean/min/max,small gain mean/min/max, ...
for rcp in 2 8; do
    base="rcp=${rcp}_policy=same"
    for policy in low slack-10 oracle drr-30 least-slack-hybrid; do
        run="rcp=${rcp}_policy=$policy"
        row=$(awk -F, -v r="$rcp" -v p="$policy" '$1 == r && $3 == p' "$out/policies.csv")
        [ -n "$row" ] || fail "policies.csv: no row for $policy at rcp $rcp"
        awk -F, -v row="$row" -v ib="$(value "$base" iteration_time_mean_s)" \
            -v ip="$(value "$run" iteration_time_mean_s)" -v fb="$(value "$base" fct_small_mean_s)" \
            -v fp="$(value "$run" fct_small_mean_s)" 'BEGIN {
                split(row, f, ",")
                slowdown = (ip / ib - 1) * 100; gain = (1 - fp / fb) * 100
                d1 = f[5] - slowdown; d2 = f[8] - gain
                if (f[4] != 1 || d1 * d1 > 1e-6 || d2 * d2 > 1e-6) {
                    printf "policies.csv: %s: expected 1 seed, slowdown %.4f, gain %.4f\n", row, slowdown, gain
                    exit 1
                }
            }' || fail "the policy's figures are not the runs' own"
    done
    grep -q "^$rcp,[^,]*,same," "$out/policies.csv" && fail "policies.csv: the baseline compared with itself"
    awk -F, -v r="$rcp" '$1 == r { n++; if ($3 == "") bad = 1 } END { exit bad || n != 1 }' \
        "$out/policy-map.csv" || fail "policy-map.csv: expected one row, naming a policy or none, for rcp $rcp"
    # One seed gives no interval: the target is not judged (rcp,flow_rate,best_policy,...,target_met).
    awk -F, -v r="$rcp" '$1 == r && $8 != "NA" { bad = 1 } END { exit bad }' "$out/policy-map.csv" ||
        fail "policy-map.csv: a target judged on one seed for rcp $rcp"
done
for figure in policy-tradeoff policy-tradeoff-p99 policy-map; do
    [ -s "$out/report/$figure.png" ] || fail "report/$figure.png not drawn"
done
# The slack-adaptive run: each buffer's time at ToS 8 and 16 adds up to its collective's.
buffers="$out/runs/rcp=2_policy=slack-10/buffers.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $(c["end_s"]) != "" { d = $(c["tos_8_s"]) + $(c["tos_16_s"]) - $(c["allreduce_s"]); n++
                          if (d * d > 1e-18) bad = 1 }
    END { exit bad || n == 0 || !c["tos_8_s"] || !c["tos_16_s"] }' "$buffers" ||
    fail "$buffers: expected tos_8_s + tos_16_s = allreduce_s on every finished buffer"
# The oracle runs: each reads its own cell's all-low run and raises what that run shows late.
for rcp in 2 8; do
    low="$out/runs/rcp=${rcp}_policy=low/buffers.csv"
    oracle="$out/runs/rcp=${rcp}_policy=oracle"
    grep -q "oracle-reference=\"$(cd "$out/runs/rcp=${rcp}_policy=low" && pwd)/buffers.csv\"" \
        "$oracle/scenario.xml" || fail "$oracle/scenario.xml: expected the low run's buffers.csv"
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { b = $(c["buffer"]) }
        FNR == NR && $(c["end_s"]) != "" { n[b]++; late[b] += $(c["end_s"]) > $(c["deadline_s"]) }
        FNR != NR && $(c["end_s"]) != "" {
            raise = n[b] > 0 && 2 * late[b] >= n[b]; rows++
            if (raise ? $(c["tos_8_s"]) != 0 : $(c["tos_16_s"]) != 0) {
                print "buffer " b ": expected " (raise ? "raised" : "low"); bad = 1 }
        }
        END { exit bad || rows == 0 }' "$low" "$oracle/buffers.csv" ||
        fail "$oracle/buffers.csv: the oracle's priorities are not those its reference shows"
done
# The least-slack run: its egresses have two bands, the background's (0) and the training's (1).
summary="$out/runs/rcp=2_policy=least-slack-hybrid/summary.csv"
grep -q '^drops_servers_band1,' "$summary" && ! grep -q '^drops_servers_band2,' "$summary" ||
    fail "$summary: expected the least-slack disc's two bands"
echo "policy report: figures from the runs' summaries, a policy map row per cell, plots drawn, the oracle from its cell's low run"
