#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The driver's own messages: ./ddnn help prints the usage and exits 0; an unknown command
# and ./ddnn campaign with a missing file or a folder end in one line naming what was given,
# exit 1, before anything is built.
# Usage: check-driver.sh DDNN
set -uo pipefail
ddnn=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$("$ddnn" help) || fail "./ddnn help: exit status $?"
grep -q '^  ./ddnn campaign FILE' <<<"$out" || fail "./ddnn help: no usage text"
expect() { # EXPECTED ARGS...: one line on stderr, exit 1
    local expected=$1 err status
    shift
    err=$("$ddnn" "$@" 2>&1 >/dev/null)
    status=$?
    [ $status -eq 1 ] || fail "./ddnn $*: exit status $status, expected 1"
    [ "$(tail -n 1 <<<"$err")" != "" ] && grep -qE "^ddnn: error: $expected" <<<"$(tail -n 1 <<<"$err")" ||
        fail "./ddnn $*: '$err' does not end with '$expected'"
}
expect "campaign: /nonexistent/c.xml: no such file" campaign /nonexistent/c.xml
expect "campaign: /: not a regular file" campaign /
[ "$("$ddnn" campaign /nonexistent/c.xml 2>&1 | wc -l)" -eq 1 ] || fail "./ddnn campaign MISSING: more than one line"
expect "unknown command 'nope'" nope
echo "driver messages: help, unknown command, missing campaign file"
