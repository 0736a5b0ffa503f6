#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Files in the oldest form ddnn reads (test/data/v0.1: as ddnn 0.1 wrote or read them) still
# run: a scenario and a campaign, a profile, a CDF and a schedule whose headers name other
# columns than today's (0.1 read every header by position). Each deprecated form is read
# with one warning naming today's header; each run ends with its results.
# Usage: check-oldest-formats.sh PROGRAMS-DIR TEST-DATA-DIR WORK-DIR
set -euo pipefail
programs=$1 old=$2/v0.1 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
warned() { # LOG FILE HEADER: exactly one warning
    [ "$(grep -c "^ddnn: warning: .*$2:" "$1")" = 1 ] || fail "$2: expected one warning in $1: $(grep warning "$1")"
    grep -q "^ddnn: warning: .*$2:[0-9]*: header read by position as ddnn 0.1 did (deprecated until 0.3): name the columns '$3'" "$1" ||
        fail "$2: no deprecation warning naming '$3' in $1: $(head -3 "$1")"
}

"$programs/ddnn-datacenter" --scenario="$old/scenario.xml" --progress=never \
    --outDir="$work/scenario" >"$work/scenario.log" 2>&1 || fail "scenario.xml: $(tail -1 "$work/scenario.log")"
[ -f "$work/scenario/summary.csv" ] || fail "scenario.xml: no summary.csv"
warned "$work/scenario.log" profile.csv layer,param_bytes,forward_ns,backward_ns
warned "$work/scenario.log" cdf.csv bytes,cumulative_fraction
echo "scenario.xml (0.1) with its profile.csv and cdf.csv (0.1 headers): ran, warned"

"$programs/ddnn-datacenter" --workers=2 --dataRate=1Gbps --rcp=4 --profile="$old/profile.csv" \
    --backgroundPattern=schedule --schedule="$old/schedule.csv" --durationS=0.05 --warmupS=0 \
    --cooldownS=0 --progress=never --outDir="$work/schedule" >"$work/schedule.log" 2>&1 ||
    fail "schedule.csv: $(tail -1 "$work/schedule.log")"
warned "$work/schedule.log" schedule.csv flow_id,from,to,size_bytes,start_ns
flows=$(awk -F, '$1 ~ /^flows_(small|medium|large)_completed$/ { n += $2 } END { print n }' "$work/schedule/summary.csv")
[ "$flows" = 2 ] || fail "schedule.csv: expected its 2 flows completed, summary.csv says '$flows'"
echo "schedule.csv (0.1 header): its 2 flows completed, warned"

"$programs/ddnn-campaign" --campaign="$old/campaign.xml" \
    --outDir="$work/campaign" >"$work/campaign.log" 2>&1 || fail "campaign.xml: $(tail -1 "$work/campaign.log")"
[ -f "$work/campaign/changes.csv" ] || fail "campaign.xml: no changes.csv"
echo "campaign.xml (0.1): its two runs and report"
