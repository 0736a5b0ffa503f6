#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# An output folder is the run's own: links planted where ddnn writes its temporary files or
# outputs are replaced, never written through (nothing outside the folder changes); an output
# folder that is itself a link is refused; a second program writing into a folder that one is
# writing into stops in one line naming the first; a full disk (here a file size limit) ends in
# one line, with no output presented as complete. The MANIFEST names ddnn's version and revision.
# Usage: check-output-folder.sh DDNN-DATACENTER WORK-DIR
set -euo pipefail
program=$1 work=$2
fail() { echo "check-output-folder: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
run() { # OUT-DIR [ARGS...]
    local out=$1
    shift
    "$program" --workers=3 --transport=ideal --flowRate=50 --durationS=0.02 --warmupS=0 \
        --cooldownS=0 --minIterations=0 --progress=never --outDir="$out" "$@"
}
echo "keep me" >"$work/outside"

# Links planted where the outputs and their temporary files go.
out=$work/planted
mkdir -p "$out"
ln -s "$work/outside" "$out/summary.csv"
ln -s "$work/outside" "$out/scenario.xml.tmp"
ln -s "$work/outside" "$out/.ddnn-write-check"
run "$out" >"$work/planted.log" 2>&1 || fail "planted links: the run failed: $(tail -2 "$work/planted.log")"
[ "$(cat "$work/outside")" = "keep me" ] || fail "a file outside the folder was written through a link"
[ -f "$out/summary.csv" ] && [ ! -L "$out/summary.csv" ] || fail "summary.csv is not a file of its own"
[ -f "$out/MANIFEST" ] || fail "planted links: no MANIFEST"
# The MANIFEST names what made the outputs: ddnn's version, the sources' revision, ns-3's.
version=$(sed -n 's/^#define DDNN_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\)$/\2/p' \
    "$(dirname "$0")/../model/ddnn-version.h" | paste -sd.)
head -1 "$out/MANIFEST" | grep -qE "of a complete run of ddnn $version \((git [0-9a-f]{12}(, modified)?|not from git|git revision unknown|revision not recorded by this build)\)" ||
    fail "the MANIFEST does not name ddnn $version and its revision: $(head -1 "$out/MANIFEST")"

# The output folder itself a link.
mkdir -p "$work/elsewhere"
ln -s "$work/elsewhere" "$work/linked"
if run "$work/linked" 2>"$work/linked.log" >/dev/null; then fail "an output folder that is a link was accepted"; fi
[ "$(wc -l <"$work/linked.log")" = 1 ] && grep -q "^ddnn-datacenter: error: --outDir=.*linked: is a symbolic link" "$work/linked.log" ||
    fail "a linked folder: expected one line, got: $(cat "$work/linked.log")"
[ -z "$(ls -A "$work/elsewhere")" ] || fail "something was written through the linked folder"
# ... also when named with a trailing slash (which names what the link points to).
if run "$work/linked/" 2>"$work/linked-slash.log" >/dev/null; then fail "an output folder that is a link was accepted as LINK/"; fi
grep -q "^ddnn-datacenter: error: --outDir=.*linked/: is a symbolic link" "$work/linked-slash.log" ||
    fail "a linked folder named LINK/: expected one line, got: $(cat "$work/linked-slash.log")"
[ -z "$(ls -A "$work/elsewhere")" ] || fail "something was written through the linked folder named LINK/"

# Two programs into one folder at once: the second is refused, the first finishes.
out=$work/shared
run "$out" --durationS=0.4 >"$work/first.log" 2>&1 &
first=$!
for _ in $(seq 100); do [ -s "$out/.ddnn-lock" ] && break; sleep 0.05; done
if run "$out" 2>"$work/second.log" >/dev/null; then
    wait "$first" || true
    fail "a second program into a folder in use was not refused"
fi
holder=$(cat "$out/.ddnn-lock")
[ "$(wc -l <"$work/second.log")" = 1 ] && grep -q "another ddnn program (PID $holder) is writing into this folder" "$work/second.log" ||
    fail "the second program: expected one line naming PID $holder, got: $(cat "$work/second.log")"
wait "$first" || fail "the first program failed: $(tail -2 "$work/first.log")"
[ -f "$out/MANIFEST" ] || fail "the first program's run is not complete"

# A full disk: one line, nothing presented as complete.
out=$work/full
if (trap "" XFSZ; ulimit -f 2; run "$out" --durationS=0.2) 2>"$work/full.log" >/dev/null; then
    fail "a write past the file size limit did not fail"
fi
[ "$(wc -l <"$work/full.log")" = 1 ] && grep -q "write failed: File too large" "$work/full.log" ||
    fail "a full disk: expected one line, got: $(cat "$work/full.log")"
[ ! -e "$out/MANIFEST" ] && [ ! -e "$out/summary.csv" ] || fail "a full disk: outputs presented as complete"
echo "output folder: planted links replaced, a linked folder refused (LINK/ too), a second writer refused, a full disk named"
