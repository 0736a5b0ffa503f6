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
# The scenario of the campaigns that compare cases of one cell: the tiny model at 400 web-search
# flows/s per server, 0.06 s.
tiny_scenario() {
    cat <<XML
  <scenario version="1">
    <topology workers="3"/>
    <training profile="$work/tiny-profile.csv" fusion-bytes="200000" rcp="4" queue="priority"/>
    <background flow-rate="400"/>
    <run duration-s="0.06" warmup-s="0.01" cooldown-s="0.01" seed="1" min-flows="1"/>
  </scenario>
XML
}
