#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A short training run with NS_LOG on (a build with DDNN_NS3_LOG, ./ddnn build --debug) logs
# the collective events in order: each buffer is ready on every worker before its collective
# starts, the syncer runs one collective at a time (each start followed by its own end), and
# every buffer of every iteration goes through, in each of the program's runs (TCP, then the
# ideal transport). Usage: check-log-order.sh DDNN-TRAINING WORK-FOLDER
set -uo pipefail
program=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
NS_LOG='TrainingJob=level_info|prefix_time:TrainingWorker=level_info|prefix_time' \
    "$program" --workers=2 --iterations=2 --rcp=4 --outDir="$work/out" >"$work/stdout" 2>"$work/log"
status=$?
[ $status -eq 0 ] || { echo "ddnn-training exited with $status"; tail -5 "$work/log"; exit 1; }
awk -v workers=2 -v iterations=2 '
    function fail(why) { print "line " NR ": " why ": " $0; failed = 1; exit 1 }
    function finish_run() {
        if (buffers && starts != buffers * iterations)
            fail("run " runs ": " starts " collectives, expected " buffers * iterations)
    }
    / worker 0 starts: / {
        finish_run()
        runs++; starts = 0; current = ""; delete ready
        match($0, /in [0-9]+ buffers/); buffers = substr($0, RSTART + 3, RLENGTH - 11) + 0
    }
    /: buffer [0-9]+ of iteration [0-9]+ ready/ {
        match($0, /buffer [0-9]+ of iteration [0-9]+/); ready[substr($0, RSTART, RLENGTH)]++
    }
    /collective start: / {
        match($0, /buffer [0-9]+ of iteration [0-9]+/); key = substr($0, RSTART, RLENGTH)
        if (current != "") fail("starts while " current " runs")
        if (ready[key] != workers) fail(key " ready on " ready[key] + 0 " of " workers " workers")
        current = key; starts++
    }
    /collective end: / {
        match($0, /buffer [0-9]+ of iteration [0-9]+/); key = substr($0, RSTART, RLENGTH)
        if (key != current) fail("ends " key " while " current " runs")
        current = ""
    }
    END {
        if (failed) exit 1
        finish_run()
        if (runs != 2) { print "expected 2 runs (TCP, ideal), logged " runs + 0; exit 1 }
        print runs " runs, " buffers " buffers x " iterations " iterations each, in order"
    }
' "$work/log"
