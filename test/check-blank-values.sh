#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Values holding blanks are taken whole (ns-3's parser alone stops a text value at its first
# blank): --outDir and --profile naming a folder and a file with blanks write the run into
# that folder, not into one named after the first word, and read that profile.
# Usage: check-blank-values.sh DDNN-TRAINING DATA-FOLDER WORK-FOLDER
set -euo pipefail
program=$1 data=$2 work=$3
rm -rf "$work"
mkdir -p "$work/my data"
cp "$data/thesis-default-profile.csv" "$work/my data/a profile.csv"
cd "$work"
"$program" --workers=2 --iterations=1 --rcp=4 --transport=ideal \
    "--profile=$work/my data/a profile.csv" "--outDir=$work/my results" >/dev/null
fail() {
    echo "FAIL: $*"
    exit 1
}
[ -f "$work/my results/MANIFEST" ] || fail "no MANIFEST in 'my results'"
[ ! -e "$work/my" ] || fail "a folder 'my' was written"
grep -q 'profile="[^"]*my data/a profile.csv"' "$work/my results/scenario.xml" ||
    fail "scenario.xml does not name 'my data/a profile.csv'"
echo "values with blanks taken whole"
