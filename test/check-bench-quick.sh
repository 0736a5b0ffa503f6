#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ddnn-bench --quick: the table's shape (every cell under every profile, each figure a
# number) and a calibration table that ddnn-campaign --estimate reads; its temporary folder
# (under TMPDIR) is gone after it, whether it ends or is interrupted. No timed assertion.
# Usage: check-bench-quick.sh DDNN-BENCH DDNN-CAMPAIGN TEST-DIR WORK-DIR
set -euo pipefail
bench=$1 campaign=$2 tests=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/tmp"
out=$(TMPDIR=$work/tmp "$bench" --quick --calibrationOut="$work/calibration.csv")
echo "$out"
n='[0-9]+(\.[0-9]+)?'
for profile in tuned thesis; do
    for cell in lightest heaviest thesis-default; do
        grep -Eq "^$cell +$profile +$n\+$n +$n +$n +$n +$n +$n +$n +$n +$n\$" <<<"$out" ||
            fail "no row for $cell under $profile"
    done
done
[ "$(grep -c '^profile,workers,rcp,flow_rate,cpu_s_per_sim_s$' "$work/calibration.csv")" = 1 ] ||
    fail "calibration header"
[ "$(grep -Ec "^(tuned|thesis),8,(16,23|2,184|4,46),$n\$" "$work/calibration.csv")" = 6 ] ||
    fail "calibration rows"
estimate=$("$campaign" --campaign="$tests/data/estimate-campaign.xml" --estimate \
    --calibration="$work/calibration.csv" --outDir="$work/campaign")
grep -q '^  6 runs' <<<"$estimate" || fail "the written table does not serve an estimate"
[ -z "$(ls -A "$work/tmp")" ] || fail "the bench left its temporary files: $(ls "$work/tmp")"
TMPDIR=$work/tmp "$bench" --quick >/dev/null 2>&1 &
bench_pid=$!
for _ in $(seq 100); do [ -n "$(ls -A "$work/tmp")" ] && break; sleep 0.05; done
[ -n "$(ls -A "$work/tmp")" ] || fail "no temporary folder under TMPDIR while the bench runs"
kill -INT "$bench_pid"
wait "$bench_pid" 2>/dev/null || true
[ -z "$(ls -A "$work/tmp")" ] || fail "an interrupted bench left its temporary files: $(ls "$work/tmp")"
# A reader that quits early (SIGPIPE).
(TMPDIR=$work/tmp "$bench" --quick 2>/dev/null | head -1 >/dev/null) || true
[ -z "$(ls -A "$work/tmp")" ] || fail "a bench whose reader quit left its temporary files: $(ls "$work/tmp")"
echo "bench quick: ok"
