#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The installed package, as a user meets it: `cmake --install` into a prefix, which is then
# moved (so nothing can point back at the build tree, the clone or the install-time path),
# and a program outside the project (test/install-consumer) built against it twice, with
# find_package(ddnn) and with `pkg-config --cflags --libs ddnn`. It runs a short scenario
# that must read the shipped profile and CDF from the moved prefix, not from the clone;
# DDNN_DATA_DIR overrides that folder. A second program registers a collective of its own.
# Usage: check-install.sh BUILD-DIR CONSUMER-DIR WORK-DIR CXX
set -euo pipefail
build=$1 consumer=$2 work=$3 cxx=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/installed" >"$work/install.log"
mv "$work/installed" "$work/moved"
prefix=$work/moved
for f in include/ns3/ddnn-module.h include/ns3/dnn-model.h share/ddnn/data/thesis-default-profile.csv \
    share/ddnn/data/web-search-cdf.csv; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
pc=$(find "$prefix" -name ddnn.pc -path '*/pkgconfig/*' | head -n 1)
config=$(find "$prefix" -name ddnnConfig.cmake | head -n 1)
[ -n "$pc" ] || fail "no ddnn.pc installed"
[ "$(dirname "$(dirname "$pc")")" = "$(dirname "$(dirname "$(dirname "$config")")")" ] ||
    fail "ddnn.pc ($pc) is not beside the CMake package ($config)"

# Each consumer's output must name the data files of the moved prefix.
check_run() { # WHAT DATA-DIR PROGRAM
    local out
    out=$("$3") || fail "$1: the consumer failed: $out"
    echo "$out"
    grep -qF "consumer: profile $2/thesis-default-profile.csv, 50 layers, 19 buffers" <<<"$out" ||
        fail "$1: the profile was not read from $2"
    grep -qE "^consumer: cdf $2/web-search-cdf.csv, [1-9][0-9]* flows" <<<"$out" ||
        fail "$1: the CDF was not read from $2"
    grep -qx 'consumer: training finished 1' <<<"$out" || fail "$1: the training did not finish"
}
unset DDNN_DATA_DIR
cmake -S "$consumer" -B "$work/cmake-consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" >"$work/cmake-consumer.log" 2>&1 ||
    fail "find_package(ddnn) consumer: configure (log: $work/cmake-consumer.log)"
cmake --build "$work/cmake-consumer" >>"$work/cmake-consumer.log" 2>&1 ||
    fail "find_package(ddnn) consumer: build (log: $work/cmake-consumer.log)"
check_run "find_package(ddnn)" "$prefix/share/ddnn/data" "$work/cmake-consumer/ddnn-consumer"

# A collective of the program's own (test-star: each worker to worker 0 and back), registered with
# the installed C API and trained with over TCP: the program checks every worker's bytes.
out=$("$work/cmake-consumer/ddnn-own-collective") || fail "own collective: the program failed: $out"
echo "$out"
grep -qx 'own-collective: training with test-star finished 1' <<<"$out" ||
    fail "own collective: the training with the registered collective did not finish"

export PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
flags=$(pkg-config --cflags --libs ddnn) || fail "pkg-config --cflags --libs ddnn"
echo "pkg-config --cflags --libs ddnn: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -O1 "$consumer/main.cc" $flags -o "$work/pc-consumer" || fail "pkg-config consumer: build"
check_run "pkg-config ddnn" "$prefix/share/ddnn/data" "$work/pc-consumer"

# DDNN_DATA_DIR, the documented override, comes first.
mkdir -p "$work/override"
cp "$prefix/share/ddnn/data/"*.csv "$work/override/"
(export DDNN_DATA_DIR=$work/override && check_run "DDNN_DATA_DIR" "$work/override" "$work/pc-consumer")
echo "installed package: find_package and pkg-config consumers passed"
