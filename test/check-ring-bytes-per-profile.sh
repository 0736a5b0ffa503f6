#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every shipped profile on 16 workers of a ring (the seed "Communication Patterns"
# experiment's size), one iteration on the ideal transport: each worker moves 2(N-1)/N of
# the model per iteration, the first-principles figure, computed here from the profile's
# own rows (not from the program's "expected" column). A buffer of S bytes splits into N
# partitions that differ by at most one byte, so a worker's bytes may differ from
# 2(N-1)/N x S by under 2 bytes per buffer.
# Usage: check-ring-bytes-per-profile.sh TRAINING_PROGRAM DATA_DIR OUT_DIR
set -euo pipefail
program=$1 data=$2 out=$3
workers=16
rm -rf "$out"
mkdir -p "$out"
profiles=("$data"/*-profile.csv)
[ ${#profiles[@]} -ge 8 ] || { echo "expected the 8 shipped profiles in $data, found ${#profiles[@]}"; exit 1; }
for profile in "${profiles[@]}"; do
    name=$(basename "$profile" -profile.csv)
    model=$(awk -F, '!/^#/ && $1 ~ /^[0-9]+$/ { sum += $2 } END { printf "%d", sum }' "$profile")
    "$program" --workers=$workers --iterations=1 --rcp=4 --transport=ideal --profile="$profile" \
        --outDir="$out/$name" >"$out/$name.log" 2>&1 || { cat "$out/$name.log"; exit 1; }
    buffers=$(($(wc -l <"$out/$name/buffers.csv") - 1)) # one iteration: a row per buffer
    value() { awk -F, -v k="$1" '$1 == k { print $2 }' "$out/$name/summary.csv"; }
    [ "$(value model_bytes)" = "$model" ] || { echo "$name: model_bytes $(value model_bytes), the rows sum to $model"; exit 1; }
    awk -v name="$name" -v got="$(value bytes_per_worker_per_iteration)" -v model="$model" \
        -v n=$workers -v buffers="$buffers" 'BEGIN {
            want = 2 * (n - 1) / n * model
            diff = got - want; if (diff < 0) diff = -diff
            printf "%-14s model %11d bytes  per worker %11d  2(N-1)/N x model %13.1f\n", name, model, got, want
            if (got == "" || diff >= 2 * buffers) { print name ": off by " diff " bytes"; exit 1 }
        }'
done
