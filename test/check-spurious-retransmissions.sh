#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The answer names spurious retransmissions: training at low priority over TCP behind the
# web-search background (data/scenarios/quick-compare.xml, 0.15 s) with a 5 ms minimum RTO
# times out and resends segments that no queue dropped, and the run says so in one line with
# the RTO and the timeouts' count; with Linux's 200 ms the timers wait out the queue, nothing
# is resent and no line appears.
# Usage: check-spurious-retransmissions.sh DDNN-DATACENTER SCENARIO WORK-DIR
set -euo pipefail
program=$1 scenario=$2 work=$3
fail() { echo "check-spurious-retransmissions: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
value() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }
run() { # NAME MIN-RTO-MS
    "$program" --scenario="$scenario" --durationS=0.15 --warmupS=0.05 --cooldownS=0 \
        --trainingPriority=low --minIterations=0 --progress=never --minRtoMs="$2" \
        --outDir="$work/$1" >"$work/$1.log" 2>&1 || fail "$1: the run failed: $(tail -2 "$work/$1.log")"
}
run short 5
run linux 200
resent=$(value "$work/short" retransmissions_servers_band2)
dropped=$(($(value "$work/short" drops_servers_band2) + $(value "$work/short" drops_switches_band2)))
[ "$resent" -gt "$dropped" ] || fail "5 ms: band 2 resent $resent segments, dropped $dropped: expected more resent"
timeouts=$(value "$work/short" timeouts_servers_band2)
[ "$timeouts" -gt 0 ] || fail "5 ms: resent segments without a retransmission timeout"
grep -q "^  band 2 (training): $resent TCP data segments sent again, $dropped packets dropped: at least $((resent - dropped)) of the resent segments had not been dropped (spurious retransmissions); $timeouts retransmission timeouts fired (minimum RTO 5 ms: " "$work/short.log" ||
    fail "5 ms: no spurious-retransmission line for band 2 in $work/short.log"
[ "$(value "$work/linux" retransmissions_servers_band2)" = 0 ] && [ "$(value "$work/linux" timeouts_servers_band2)" = 0 ] ||
    fail "200 ms: band 2 resent segments; the 'without' case no longer holds"
! grep -q "spurious" "$work/linux.log" || fail "200 ms: a spurious-retransmission line without any"
echo "spurious retransmissions: named at 5 ms ($resent resent after $timeouts timeouts, $dropped dropped), absent at 200 ms"
