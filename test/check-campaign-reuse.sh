#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A result belongs to the run that claims it: a campaign folder reused by another campaign
# with the same run names but other values is not counted finished; each such run is redone,
# saying why. The same campaign again finds its runs finished.
# Usage: check-campaign-reuse.sh DDNN-CAMPAIGN WORK-DIR
set -euo pipefail
# shellcheck source=tiny-campaign-setup.sh
source "$(dirname "$0")/tiny-campaign-setup.sh"
write() { # FLOW-RATE
    cat >"$work/campaign.xml" <<XML
<campaign version="1">
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="200000" rcp="4" transport="ideal"/>
    <background flow-rate="$1"/>
    <run duration-s="0.02" warmup-s="0" cooldown-s="0" seed="1" min-iterations="0"/>
  </scenario>
  <vary parameter="priority.training" values="same low"/>
</campaign>
XML
}
out=$work/out
write 50
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" >/dev/null 2>"$work/first.log" ||
    fail "the first campaign failed: $(tail -2 "$work/first.log")"
write 80
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" >/dev/null 2>"$work/other.log" ||
    fail "the other campaign failed: $(tail -2 "$work/other.log")"
[ "$(grep -c "is redone: it ran another scenario than this campaign's (background.flow-rate: '80' vs '50'" "$work/other.log")" = 2 ] ||
    fail "the other campaign did not redo both runs, naming the difference: $(grep redone "$work/other.log" || true)"
grep -q "2 runs, 0 already finished" "$work/other.log" || fail "the other campaign counted a run finished"
grep -q 'flow-rate="80"' "$out/runs/training=low/scenario.xml" || fail "the redone run kept the old scenario"
"$campaign" --campaign="$work/campaign.xml" --outDir="$out" >/dev/null 2>"$work/again.log" ||
    fail "the same campaign again failed: $(tail -2 "$work/again.log")"
grep -q "2 runs, 2 already finished" "$work/again.log" || fail "the same campaign again redid its runs: $(cat "$work/again.log")"
# A run folder that is a link to a finished run (or runs/ a link) is not counted: refused.
linked=$work/linked
mkdir -p "$linked/runs"
ln -s "$out/runs/training=same" "$linked/runs/training=same"
if "$campaign" --campaign="$work/campaign.xml" --outDir="$linked" >/dev/null 2>"$work/linked.log"; then
    fail "a campaign counted a linked run folder: $(cat "$work/linked.log")"
fi
grep -q "runs/training=same: is a symbolic link" "$work/linked.log" && [ "$(wc -l <"$work/linked.log")" = 1 ] ||
    fail "a linked run folder: expected one line, got: $(cat "$work/linked.log")"
rm -rf "$linked" && mkdir -p "$linked" && ln -s "$out/runs" "$linked/runs"
if "$campaign" --campaign="$work/campaign.xml" --outDir="$linked" >/dev/null 2>"$work/linked-runs.log"; then
    fail "a campaign counted the runs of a linked runs/: $(cat "$work/linked-runs.log")"
fi
grep -q "runs: is a symbolic link" "$work/linked-runs.log" ||
    fail "a linked runs/: expected one line, got: $(cat "$work/linked-runs.log")"
echo "campaign reuse: another campaign's runs redone (naming the difference), the same campaign's kept, linked run folders refused"
