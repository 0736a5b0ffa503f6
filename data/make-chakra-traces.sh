#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writes the Chakra execution traces shipped in data/chakra/ (tools/make-chakra-trace.py):
# ASTRA-sim's microbenchmark shape (one 1 MiB all-reduce per rank) on 4, 8 and 16 ranks, and a
# small training job on 4 ranks (3 layers) with its equivalent profile CSV.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
make=$here/../tools/make-chakra-trace.py
rm -rf "$here/chakra"
for ranks in 4 8 16; do
    python3 "$make" "$here/chakra/allreduce-$ranks" --shape=allreduce --ranks=$ranks --bytes=1048576
done
python3 "$make" "$here/chakra/training-4" --shape=training --ranks=4 --bytes=400000,250000,100000 \
    --forward-us=300 --backward-us=600 --csv="$here/chakra/training-4.csv"
