#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Converts a flow-size distribution published as "SIZE CUMULATIVE" lines (whitespace- or
# comma-separated; the cumulative share in percent, 0 to 100, as HPCC's traffic_gen files, or
# as a fraction, 0 to 1) into ddnn's CDF file (bytes,cumulative_fraction, doc/user.rst,
# "Background distributions"), for --cdf=FILE or <background cdf="FILE">.
# Usage: tools/import-cdf.sh IN OUT "WHERE IT COMES FROM"
# OUT must not exist. Stops with one line naming IN and the line at fault when a line is not
# two numbers, sizes or shares decrease, the first share is not 0 or the last not 100 % (1).
set -euo pipefail
fail() { echo "import-cdf: $*" >&2; exit 1; }
[ $# -eq 3 ] || fail "usage: tools/import-cdf.sh IN OUT \"WHERE IT COMES FROM\""
in=$1 out=$2 source=$3
[ -f "$in" ] && [ -r "$in" ] || fail "$in: not a readable file"
[ ! -e "$out" ] && [ ! -L "$out" ] || fail "$out: exists (give a new file)"
[[ $source != *$'\n'* ]] || fail "the source text must be one line"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
awk -v file="$in" '
    function die(why) { printf "import-cdf: %s:%d: %s\n", file, NR, why > "/dev/stderr"; bad = 1; exit 1 }
    /^[ \t]*(#|$)/ { next }
    {
        gsub(/,/, " ")
        if (NF != 2) die("expected SIZE CUMULATIVE, got \"" $0 "\"")
        for (i = 1; i <= 2; i++)
            if ($i !~ /^[0-9]+(\.[0-9]+)?([eE][+]?[0-9]+)?$/) die("not a number: \"" $i "\"")
        size = $1 + 0; share = $2 + 0
        if (n > 0 && size < sizes[n]) die("sizes decrease: " size " after " sizes[n])
        if (n > 0 && share < shares[n]) die("shares decrease: " share " after " shares[n])
        if (n == 0 && share != 0) die("the first share must be 0, got " share)
        n++; sizes[n] = size; shares[n] = share
    }
    END {
        if (bad) exit 1
        if (n < 2) { printf "import-cdf: %s: fewer than two points\n", file > "/dev/stderr"; exit 1 }
        scale = shares[n] == 100 ? 100 : shares[n] == 1 ? 1 : 0
        if (!scale) { printf "import-cdf: %s: the last share must be 100 (percent) or 1, got %s\n", file, shares[n] > "/dev/stderr"; exit 1 }
        for (i = 1; i <= n; i++) {
            if (i > 1) mean += (sizes[i - 1] + sizes[i]) / 2 * (shares[i] - shares[i - 1]) / scale
            printf "%.0f,%.10g\n", sizes[i], shares[i] / scale
        }
        printf "mean %.0f\n", mean > "/dev/fd/3"
    }
' "$in" >"$rows" 3>"$rows.mean" || { rm -f "$rows.mean"; exit 1; }
mean=$(awk '{ print $2 }' "$rows.mean")
rm -f "$rows.mean"
{
    echo "# ddnn flow-size distribution, converted by tools/import-cdf.sh from $(basename "$in")."
    echo "# Source: $source"
    echo "# Rows: flow size in bytes, cumulative fraction of flows at or below that size; sizes"
    echo "# are linearly interpolated between points, so the mean is $mean bytes."
    echo "bytes,cumulative_fraction"
    cat "$rows"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(($(wc -l <"$rows"))) points, mean $mean bytes"
