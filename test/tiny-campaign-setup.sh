# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the campaign report checks (check-report-*.sh, check-policy-report.sh), called
# as SCRIPT DDNN-CAMPAIGN WORK-DIR: sets campaign and work, empties the work folder, defines
# fail, and writes the tiny model they share: 4 layers of 100 kB (on 3 workers an iteration of
# about 2 ms that moves 0.53 MB).
set -euo pipefail
campaign=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000
2,100000,100000,200000\n3,100000,100000,200000\n' >"$work/tiny-profile.csv"
