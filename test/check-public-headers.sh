#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The public headers as a user of the installed ones meets them: each compiles on its own
# (target ddnn-public-headers: one translation unit per staged header, which includes it
# twice), includes none of the private headers (they are neither staged nor installed), and
# names none of their types or functions, except in a class's private section and in a
# forward declaration ("struct ddnn_syncer;"): the opaque handles and friend-only methods a
# user's program never touches.
# Usage: check-public-headers.sh BUILD-DIR STAGED-DIR SOURCE-DIR PRIVATE-HEADER...
set -euo pipefail
build=$1 staged=$2 source=$3
shift 3
fail=0

cmake --build "$build" --target ddnn-public-headers >"$build/public-headers.log" 2>&1 || {
    grep -E -A8 'error' "$build/public-headers.log" | head -40 >&2
    echo "FAIL: a public header does not compile on its own (log: $build/public-headers.log)" >&2
    exit 1
}

# The names the private headers declare: the ddnn_/DDNN_ identifiers and classes they hold,
# less those of the public headers they include (ddnn_diag, DDNN_OK, ...).
names=$(for h in "$@"; do grep -ohE '\bddnn_[a-z0-9_]+|\bDDNN_[A-Z0-9_]+|^class [A-Za-z0-9]+' \
    "$source/$h" | sed 's/^class //'; done | sort -u)
public_names=$(for h in "$@"; do
    sed -n 's/^#include "\(.*\)"$/\1/p' "$source/$h" | while read -r inc; do
        [ -f "$staged/$inc" ] && grep -ohE '\bddnn_[a-z0-9_]+|\bDDNN_[A-Z0-9_]+' "$staged/$inc"
    done
done | sort -u)
private_names=$(comm -23 <(echo "$names") <(echo "$public_names"))
[ -n "$private_names" ] || { echo "FAIL: found no names in the private headers" >&2; exit 1; }
pattern="\\b($(paste -sd'|' <<<"$private_names"))\\b"

count=0
for header in "$staged"/*.h; do
    count=$((count + 1))
    for h in "$@"; do
        if grep -qE "^#include [\"<](ns3/)?$(basename "$h")[\">]" "$header"; then
            echo "FAIL: $(basename "$header") includes the private header $(basename "$h")" >&2
            fail=1
        fi
    done
    # Lines outside a class's private section that name a private name (clang-format puts
    # access specifiers on lines of their own; a class starts private, a struct public).
    awk '
        /^class [A-Za-z0-9_]+[^;]*$/ { hidden = 1; next }
        /^struct [A-Za-z0-9_]+[^;]*$/ { hidden = 0; next }
        /^ *(public|protected):/ { hidden = 0; next }
        /^ *private:/ { hidden = 1; next }
        /^};/ { hidden = 0; next }
        /^struct [a-z0-9_]+;$/ { next }
        !hidden { print NR ": " $0 }
    ' "$header" | grep -E "$pattern" | sed "s|^|FAIL: $(basename "$header"):|" >&2 && fail=1
done
[ "$count" -gt 1 ] || { echo "FAIL: no staged headers in $staged" >&2; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "public headers: $count compile on their own, none names a private name outside its private sections"
