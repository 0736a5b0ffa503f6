#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The documentation's code runs as printed: every ```cpp block of README.md and every
# `.. code-block:: cpp` of doc/*.rst is a whole program, compiled against the installed
# package (cmake --install into a scratch prefix, `pkg-config --cflags --libs ddnn`) and run;
# it must exit 0 and print no warning or error.
# Usage: check-doc-snippets.sh BUILD-DIR SOURCE-DIR WORK-DIR CXX
set -euo pipefail
build=$1 source=$2 work=$3 cxx=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/snippets"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
pc=$(find "$work/prefix" -name ddnn.pc | head -n 1)
[ -n "$pc" ] || fail "no ddnn.pc installed"
export PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
unset DDNN_DATA_DIR

# Writes each snippet to $work/snippets/FILE-LINE.cc (LINE: where its code starts).
awk -v out="$work/snippets" '
    function start(line) { name = out "/" base "-" line ".cc"; printf "" > name; inside = 1 }
    FNR == 1 { base = FILENAME; sub(/.*\//, "", base); inside = 0; rst = 0 }
    FILENAME ~ /\.md$/ {
        if (!inside && $0 ~ /^```cpp[ \t]*$/) { start(FNR + 1); next }
        if (inside && $0 ~ /^```/) { inside = 0; close(name); next }
        if (inside) print > name
        next
    }
    FILENAME ~ /\.rst$/ {
        if (!inside && $0 ~ /^\.\. code-block:: *cpp[ \t]*$/) { start(FNR + 2); indent = -1; next }
        if (!inside) next
        if ($0 ~ /^[ \t]*$/) { if (indent >= 0) print "" > name; next }
        match($0, /^ */)
        if (indent < 0) indent = RLENGTH
        if (RLENGTH < indent || indent == 0) { inside = 0; close(name); next }
        print substr($0, indent + 1) > name
    }
' "$source/README.md" "$source"/doc/*.rst

count=0
for snippet in "$work"/snippets/*.cc; do
    [ -f "$snippet" ] || continue
    name=$(basename "$snippet" .cc)
    where="${name%-*}:${name##*-}"
    grep -qE '(^|[^a-zA-Z_])main[ \t]*\(' "$snippet" ||
        fail "$where: a cpp snippet that is not a whole program (no main): a reader cannot run it as printed"
    # shellcheck disable=SC2046 # pkg-config's flags are words
    "$cxx" -O1 -Wall -Wextra -Werror "$snippet" $(pkg-config --cflags --libs ddnn) -o "$work/$name" \
        >"$work/$name.build.log" 2>&1 || {
        cat "$work/$name.build.log" >&2
        fail "$where: does not compile against the installed package"
    }
    (cd "$work" && timeout 600 "./$name") >"$work/$name.log" 2>&1 || {
        tail -n 20 "$work/$name.log" >&2
        fail "$where: the program failed (log: $work/$name.log)"
    }
    # ddnn warns on stderr about what cannot work (priorities an egress ignores): a printed
    # program must run clean.
    if grep -qiE 'warning|error' "$work/$name.log"; then
        grep -iE 'warning|error' "$work/$name.log" | head -n 5 >&2
        fail "$where: the program printed a warning or an error (log: $work/$name.log)"
    fi
    echo "PASS: $where ($(tail -n 1 "$work/$name.log"))"
    count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no cpp snippet found in README.md or doc/*.rst"
echo "$count documentation programs compiled and ran"
