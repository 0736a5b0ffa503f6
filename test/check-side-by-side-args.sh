#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/thesis-side-by-side.sh refuses, each with one line and exit status 1, before it runs
# or removes anything: a cell it does not know, a simulator folder that is missing, that
# is not the thesis code's, whose ns-3 is of another release, or that is not built.
# Usage: check-side-by-side-args.sh WORK-DIR
set -euo pipefail
work=$1
tool=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/thesis-side-by-side.sh
rm -rf "$work"
mkdir -p "$work/out"
touch "$work/out/kept"
fail() { echo "FAIL: $*" >&2; exit 1; }

# A stand-in of the thesis code's folder: the files the tool looks for, nothing built.
fake=$work/simulator
mkdir -p "$fake/src/basic-apps/model" "$fake/scratch/main_pfabric_flows_horovod"
touch "$fake/waf" "$fake/src/basic-apps/model/horovod-worker.cc" \
    "$fake/scratch/main_pfabric_flows_horovod/main_pfabric_flows_horovod.cc"

refuses() { # expected-text args...
    local want=$1 err rc=0
    shift
    err=$("$tool" "$@" 2>&1 >/dev/null) || rc=$?
    [[ $rc == 1 ]] || fail "$* exited $rc, expected 1"
    [[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || fail "$*: more than one line: $err"
    [[ $err == *"$want"* ]] || fail "$*: '$err' does not say '$want'"
    [[ -f $work/out/kept ]] || fail "$*: removed what OUTDIR held"
}

refuses "CELL must be default, loss-heavy or rcpR-flowsF" "$fake" rcp3-flows46 1 "$work/out"
refuses "CELL must be default, loss-heavy or rcpR-flowsF" "$fake" rcp4-flows50 1 "$work/out"
refuses "CELL must be default, loss-heavy or rcpR-flowsF" "$fake" busy 1 "$work/out"
refuses "SIMULATOR_DIR is not a folder: $work/missing" "$work/missing" default 1 "$work/out"
refuses "not the thesis code's simulator folder" "$work/out" default 1 "$work/out"
refuses "VERSION says 'nothing'" "$fake" default 1 "$work/out"
echo 3.37 >"$fake/VERSION"
refuses "the thesis code runs on ns-3.30.1, but $fake/VERSION says '3.37'" "$fake" loss-heavy 1 "$work/out"
echo 3.30.1 >"$fake/VERSION"
refuses "the thesis code is not built (no folder $fake/build)" "$fake" rcp8-flows184 1 "$work/out"
mkdir -p "$fake/build/optimized/lib"
refuses "the thesis code is not built (no main_pfabric_flows_horovod" "$fake" rcp16-flows23 1 "$work/out"
refuses "SEED must be a whole number" "$fake" default 0 "$work/out"
refuses "--resume and --report-only exclude each other" --resume --report-only "$fake" default 1 "$work/out"
echo "side-by-side arguments: every bad one refused in one line"
