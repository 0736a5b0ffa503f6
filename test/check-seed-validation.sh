#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A campaign with a <reference> table, at a tiny size over the ideal transport (a 4-worker
# ring of one 4 MB buffer per iteration, network-bound): validation.csv sets each published
# ratio beside ddnn's, from first principles here: halving the link rate doubles a
# network-bound iteration (within 10 %), a ring worker sends 2(N-1)/N of the model per
# iteration (exactly 1.5), a direction the runs contradict says so, and a row no run can
# answer is NA. A bad reference table stops the campaign before any run, in one line.
# Usage: check-seed-validation.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
campaign=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'layer,param_bytes,forward_ns,backward_ns\n0,2000000,100000,200000\n1,2000000,100000,200000\n' \
    >"$work/profile.csv"
cat >"$work/reference.csv" <<CSV
# a comment line
figure,claim,only,parameter,value,key,baseline_value,baseline_key,paper
Fig. A,half the rate doubles the iteration,-,data-rate,5Gbps,iteration_time_mean_s,10Gbps,iteration_time_mean_s,2
Fig. B,a worker sends 2(N-1)/N of the model,seed=1,-,-,bytes_per_worker_per_iteration,-,model_bytes,1.5
Fig. C,a claim the runs contradict,-,data-rate,10Gbps,iteration_time_mean_s,5Gbps,iteration_time_mean_s,>1
Fig. D,a value no run has,-,data-rate,1Gbps,iteration_time_mean_s,10Gbps,iteration_time_mean_s,3
CSV
write_campaign() { # reference file
    cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="4"/>
    <training profile="$work/profile.csv" fusion-bytes="4000000" compute-ms="0.1"
              transport="ideal" barrier="true"/>
    <background flow-rate="0.01"/>
    <run duration-s="0.1" warmup-s="0" cooldown-s="0" min-iterations="2"/>
  </scenario>
  <vary parameter="topology.data-rate" values="10Gbps 5Gbps"/>
  <vary parameter="run.seed" values="1 2"/>
  <reference file="$1"/>
</campaign>
XML
}
write_campaign reference.csv # next to the campaign file
out=$work/out
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" --jobs=2 2>"$work/log" ||
    fail "the campaign failed: $(tail -3 "$work/log")"
v=$out/validation.csv
[ "$(head -1 "$v")" = "figure,claim,runs,paper,ddnn_mean,ddnn_min,ddnn_max,seeds,direction,size" ] ||
    fail "$v: header $(head -1 "$v")"
row() { grep "^$1," "$v" || fail "$v: no row for $1"; }
row "Fig. A" | awk -F, '{ if (!($8 == 2 && $5 > 1.8 && $5 < 2.2 && $9 == "agrees" &&
    $10 == "within 25 %")) exit 1 }' || fail "Fig. A: $(row "Fig. A")"
[ "$(row "Fig. B" | wc -l)" = 2 ] || fail "Fig. B: one row per rate expected: $(row "Fig. B")"
row "Fig. B" | awk -F, '{ if (!($5 == 1.5 && $6 == 1.5 && $7 == 1.5 && $8 == 1)) exit 1 }' ||
    fail "Fig. B: $(row "Fig. B")"
row "Fig. C" | awk -F, '{ if (!($5 < 0.6 && $9 == "differs")) exit 1 }' || fail "Fig. C: $(row "Fig. C")"
row "Fig. D" | awk -F, '{ if (!($5 == "NA" && $8 == 0 && $9 == "NA")) exit 1 }' ||
    fail "Fig. D: $(row "Fig. D")"

# A bad table: one line naming the file, its line and the field; no run started.
sed 's/,2$/,two/' "$work/reference.csv" >"$work/bad.csv"
write_campaign bad.csv
rm -rf "$work/out2"
if "$campaign" --campaign="$work/campaign.xml" --outDir="$work/out2" 2>"$work/err"; then
    fail "a bad reference table was accepted"
fi
if [ "$(wc -l <"$work/err")" != 1 ] || ! grep -q "bad.csv:3: paper 'two': expected" "$work/err"; then
    fail "bad table: $(cat "$work/err")"
fi
[ ! -e "$work/out2/runs" ] || fail "runs were started with a bad reference table"
echo "seed validation: ok"
