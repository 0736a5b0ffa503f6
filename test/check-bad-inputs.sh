#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every case of test/bad-inputs.txt and checks: exit status 1 (no signal, no hang within
# 60 s), exactly one line on stderr matching "^ddnn-PROGRAM: error: .*EXPECTED", and no
# output presented as complete (no MANIFEST or summary.csv in the case's --outDir).
# In ARGUMENTS, @SP@ stands for a blank inside one argument, and env:NAME=VALUE sets NAME in
# the program's environment instead of passing an argument.
# Usage: check-bad-inputs.sh PROGRAM-FOLDER DATA-FOLDER TEST-FOLDER WORK-FOLDER
set -uo pipefail
programs=$1 data=$2 tests=$3 work=$4
rm -rf "$work"
bad=$work/files
mkdir -p "$bad"

# The bad files the catalogue names.
w() { printf "$2" >"$bad/$1"; }
w empty.csv ''
w header-only.csv 'layer,param_bytes,forward_ns,backward_ns\n'
w text-bytes.csv '0,many,1,1\n'
w negative-bytes.csv '0,-4,1,1\n'
w missing-layer.csv '0,4,1,1\n2,4,1,1\n'
w duplicate-layer.csv '0,4,1,1\n0,4,1,1\n'
w zero-compute.csv '0,4,0,0\n1,4,0,0\n'
w bytes-wrap.csv '0,18446744073709551615,1,1\n1,18446744073709551615,1,1\n'
w compute-wrap.csv '0,4,600000000000000,1\n1,4,600000000000000,1\n'
w three-fields.csv '0,4,1\n'
head -c 4096 /dev/urandom | tr -d ',\n' >"$bad/binary.csv"
w cdf-decreasing.csv '0,0\n10,0.6\n20,0.5\n30,1\n'
w cdf-not-from-0.csv '0,0.1\n10,1\n'
w cdf-not-to-1.csv '0,0\n10,0.9\n'
w cdf-huge.csv '0,0\n1e20,1\n'
w cdf-1e30.csv '0,0\n10,0.5\n1e30,1\n'
w cdf-negative.csv '0,0\n-10,0.5\n20,1\n'
w cdf-one-point.csv '0,0\n'
w cdf-text.csv '0,0\nten,0.5\n20,1\n'
header='flow_id,from,to,size_bytes,start_ns\n'
w sched-server.csv "${header}0,0,99,100,0\n"
w sched-self.csv "${header}0,1,1,100,0\n"
w sched-zero.csv "${header}0,0,1,0,0\n"
w sched-huge.csv "${header}0,0,1,1000000000001,0\n"
w sched-late.csv "${header}0,0,1,100,9223372036854775808\n"
w sched-negative.csv "${header}0,0,1,100,-5\n"
w sched-duplicate.csv "${header}0,0,1,100,0\n0,1,2,100,5\n"
w sched-fields.csv "${header}0,0,1,100\n"
run='<run duration-s="1" min-iterations="0"/>'
w scenario-empty.xml ''
w two-jobs-ports.xml "<scenario version=\"1\"><topology workers=\"4\"/><training workers=\"2\" syncer=\"network\"/><training workers=\"2\" syncer=\"network\"/>$run</scenario>\n"
w scenario-missing-cdf.xml "<scenario version=\"1\"><topology workers=\"4\"/><background cdf=\"no-such-cdf.csv\"/>$run</scenario>\n"
w scenario-0.1-tos.xml "<scenario version=\"1\"><topology workers=\"4\"/><training tos=\"8\"/>$run</scenario>\n"
w scenario-version-2.xml "<scenario version=\"2\"><topology workers=\"4\"/>$run</scenario>\n"
w scenario-queue.xml "<scenario version=\"1\"><topology workers=\"4\"/><training queue=\"lifo\"/>$run</scenario>\n"
w scenario-workers-huge.xml "<scenario version=\"1\"><topology workers=\"99999999999\"/>$run</scenario>\n"
w scenario-long-path.xml "<scenario version=\"1\"><topology workers=\"4\"/><training profile=\"$(printf 'p%.0s' $(seq 1100))\"/>$run</scenario>\n"
jobs='<topology workers="8"/><training workers="4"/>'
run='<run duration-s="1" warmup-s="0.1" cooldown-s="0.1" min-iterations="0"/>'
w jobs-twice.xml "<scenario version=\"1\">$jobs<training placement=\"4,4,5,6\"/>$run</scenario>\n"
w jobs-no-server.xml "<scenario version=\"1\">$jobs<training placement=\"4,5,6,9\"/>$run</scenario>\n"
w jobs-no-room.xml "<scenario version=\"1\">$jobs<training workers=\"6\"/>$run</scenario>\n"
w jobs-one-worker.xml "<scenario version=\"1\">$jobs<training workers=\"1\"/>$run</scenario>\n"
w jobs-late.xml "<scenario version=\"1\">$jobs<training start-s=\"2\"/>$run</scenario>\n"
w jobs-band.xml "<scenario version=\"1\">$jobs<training band=\"3\"/>$run</scenario>\n"
w jobs-nine.xml "<scenario version=\"1\">$jobs$(printf '<training/>%.0s' $(seq 8))$run</scenario>\n"
w jobs-campaign.xml "<campaign version=\"1\"><scenario version=\"1\">$jobs$run</scenario><vary parameter=\"training[2].rcp\" values=\"2\"/></campaign>\n"
# Chakra trace folders, each broken one way (tools/make-chakra-trace.py), and one whose rank file
# passes the reader's 64 MiB cap (sparse: refused by its size before a byte is read).
for variant in truncated oversized cycle unknown-type all-gather disagree-size disagree-group \
    disagree-count missing-rank stray-file; do
    python3 "$tests/../tools/make-chakra-trace.py" "$bad/chakra-$variant" --ranks=4 \
        --malformed=$variant || exit 1
done
mkdir -p "$bad/chakra-huge" "$bad/chakra-empty"
truncate -s 65M "$bad/chakra-huge/trace.0.et"
{
    printf '<scenario version="1"><topology workers="4"'
    for i in $(seq 2000); do printf ' a%d="1"' "$i"; done
    printf "/>$run</scenario>\n"
} >"$bad/scenario-attributes.xml"
w scenario-campaign.xml "<campaign version=\"1\"><scenario version=\"1\"><topology workers=\"4\"/>$run</scenario></campaign>\n"
{
    printf '<scenario version="1"><!-- '
    head -c 1100000 /dev/zero | tr '\0' x
    printf " --><topology workers=\"4\"/>$run</scenario>\n"
} >"$bad/scenario-huge.xml"
base="<scenario version=\"1\"><topology workers=\"4\"/>$run</scenario>"
w campaign-duplicate-value.xml "<campaign version=\"1\">$base<vary parameter=\"run.seed\" values=\"1 1 2\"/></campaign>\n"
w campaign-duplicate-parameter.xml "<campaign version=\"1\">$base<vary parameter=\"run.seed\" values=\"1\"/><vary parameter=\"run.seed\" values=\"2\"/></campaign>\n"
w campaign-reference-missing.xml "<campaign version=\"1\">$base<reference file=\"no-such-table.csv\"/></campaign>\n"
w campaign-reference-header.csv "figure,claim\nFig. 1,a claim\n"
w campaign-reference-header.xml "<campaign version=\"1\">$base<reference file=\"campaign-reference-header.csv\"/></campaign>\n"
w campaign-reference-only.csv "figure,claim,only,parameter,value,key,baseline_value,baseline_key,paper\nFig. 1,a claim,workers,data-rate,5Gbps,iteration_time_mean_s,10Gbps,iteration_time_mean_s,2\n"
w campaign-reference-only.xml "<campaign version=\"1\">$base<reference file=\"campaign-reference-only.csv\"/></campaign>\n"
oracle='<set parameter="training.priority-policy" value="oracle"/><set parameter="training.oracle-reference"'
w campaign-case-unknown.xml "<campaign version=\"1\">$base<vary name=\"policy\"><case name=\"low\"><set parameter=\"priority.training\" value=\"low\"/></case><case name=\"oracle\">$oracle value=\"case:lowest\"/></case></vary></campaign>\n"
# A chain of references, in both orders: o2 reads o1, which reads low.
low_case='<case name="low"><set parameter="priority.training" value="low"/></case>'
o1_case="<case name=\"o1\"><set parameter=\"priority.training\" value=\"low\"/>$oracle value=\"case:low\"/></case>"
o2_case="<case name=\"o2\"><set parameter=\"priority.training\" value=\"low\"/>$oracle value=\"case:o1\"/></case>"
w campaign-case-chain.xml "<campaign version=\"1\">$base<vary name=\"policy\">$low_case$o1_case$o2_case</vary></campaign>\n"
w campaign-case-chain-reversed.xml "<campaign version=\"1\">$base<vary name=\"policy\">$low_case$o2_case$o1_case</vary></campaign>\n"
w campaign-missing-profile.xml "<campaign version=\"1\">$base<vary parameter=\"training.profile\" values=\"thesis-tenth-profile.csv /nonexistent-profile.csv\"/></campaign>\n"
w campaign-case-self.xml "<campaign version=\"1\">$base<vary name=\"policy\"><case name=\"low\"><set parameter=\"priority.training\" value=\"low\"/></case><case name=\"oracle\">$oracle value=\"case:oracle\"/></case></vary></campaign>\n"
w campaign-unknown-parameter.xml "<campaign version=\"1\">$base<vary parameter=\"run.speed\" values=\"1\"/></campaign>\n"
w campaign-no-values.xml "<campaign version=\"1\">$base<vary parameter=\"run.seed\" values=\" \"/></campaign>\n"
values=$(seq -s ' ' 1 200)
{
    printf '<campaign version="1">%s' "$base"
    for p in run.seed training.iterations training.fusion-bytes training.stall-timeout-ms; do
        printf '<vary parameter="%s" values="%s"/>' "$p" "$values"
    done
    printf '</campaign>\n'
} >"$bad/campaign-huge.xml"
# The README's former first plot: 0.3 s of window for iterations of about 0.48 s.
w campaign-short-window.xml "<campaign version=\"1\"><scenario version=\"1\"><topology workers=\"4\"/><training rcp=\"4\"/><background flow-rate=\"92\"/><run duration-s=\"0.5\" warmup-s=\"0.1\" cooldown-s=\"0.1\"/></scenario><vary parameter=\"priority.training\" values=\"low same\"/></campaign>\n"
w campaign-long-name.xml "<campaign version=\"1\">$base<vary parameter=\"training.profile\" values=\"$(printf 'q%.0s' $(seq 300))\"/></campaign>\n"

# Ranges ns-3 shares, special files, work bounded in the input (issue 20, classes 1 to 4).
mkfifo "$bad/fifo.csv"
truncate -s 5G "$bad/sparse-5g.xml"
truncate -s 5G "$bad/sparse-5g.csv"
w scenario-seed-top.xml "<scenario version=\"1\"><topology workers=\"4\"/><run duration-s=\"1\" seed=\"4294967295\"/></scenario>\n"
w scenario-tbps.xml "<scenario version=\"1\"><topology workers=\"4\" data-rate=\"1Tbps\"/><run duration-s=\"1\"/></scenario>\n"
w scenario-fifo-profile.xml "<scenario version=\"1\"><topology workers=\"4\"/><training profile=\"fifo.csv\"/><run duration-s=\"1\" warmup-s=\"0.1\" cooldown-s=\"0.1\"/></scenario>\n"
w campaign-seed-top.xml "<campaign version=\"1\">$base<vary parameter=\"run.seed\" values=\"1 4294967295\"/></campaign>\n"
{
    echo 'profile,workers,rcp,flow_rate,cpu_s_per_sim_s'
    for i in $(seq 201); do echo "tuned,8,$i,$((i % 7 + 1)),1"; done
} >"$bad/calibration-rows.csv"
mkdir -p "$bad/my campaign"

# Issue 20, classes 6-11 (generated scripts and manifests, numbers, round trips, CSV,
# campaign values, messages).
w sched-reordered.csv 'from,flow_id,to,start_ns,size_bytes\n1,0,1,0,100\n'
w sched-renamed.csv 'flow,to,from,size_bytes,start_ns\n0,0,1,100,0\n'
w bom-profile.csv '\xef\xbb\xbf0,-4,1,1\n1,4,1,1\n'
w quoted-profile.csv '"0",4,1,1\n1,4,1,1\n'
w bom-cdf.csv '\xef\xbb\xbfbytes,cumulative_fraction\n0,0\n20,0.6\n10,1\n'
w calibration-reordered.csv 'workers,profile,rcp,flow_rate,cpu_s_per_sim_s\n8,tuned,2,20,0x20\n'
w calibration-no-header.csv '# measured\ntuned,8,2,20,32\n'
w campaign-same-seed.xml "<campaign version=\"1\">$base<vary parameter=\"run.seed\" values=\"1 2 01\"/></campaign>\n"
w campaign-same-rcp.xml "<campaign version=\"1\">$base<vary parameter=\"training.rcp\" values=\"4 4.0 4e0\"/></campaign>\n"
w scenario-hex.xml "<scenario version=\"1\"><topology workers=\"4\"/><training compute-ms=\"0x10\"/><run duration-s=\"1\"/></scenario>\n"
w scenario-tiny-duration.xml "<scenario version=\"1\"><topology workers=\"4\"/><run duration-s=\"1e-10\" warmup-s=\"0\" cooldown-s=\"0\"/></scenario>\n"
d() { printf '<scenario version="1"><topology workers="4"/><run duration-s="1"/>%s</scenario>\n' "$1"; }
d '<ns3-default name="ns3::TcpSocket::NoSuch" value="1"/>' >"$bad/ns3-unknown.xml"
d '<ns3-default name="ns3::FirstBuffersPriority::Count" value="3"/>' >"$bad/ns3-owned.xml"
d '<ns3-default name="ns3::TcpSocket::DataRetries" value="12x"/>' >"$bad/ns3-number.xml"
d '<ns3-default name="ns3::TcpSocket::PersistTimeout" value="5parsecs"/>' >"$bad/ns3-time.xml"
d '<ns3-default name="ns3::TcpSocket::SegmentSize" value="1000"/><ns3-default name="ns3::TcpSocket::SegmentSize" value="536"/>' >"$bad/ns3-twice.xml"
mkdir -p "$bad/way/scenario.xml"             # a folder where an output goes
mkdir -p "$bad/elsewhere"
ln -sfn "$bad/elsewhere" "$bad/linked-out" # an output folder that is a link

passed=0
failed=0
n=0
while IFS= read -r line; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    n=$((n + 1))
    program=$(sed 's/ *|.*//' <<<"$line")
    args=$(awk -F' [|] ' '{ print $2 }' <<<"$line")
    expected=$(awk -F' [|] ' '{ print $3 }' <<<"$line")
    args=${args//@DATA@/$data}
    args=${args//@TESTDATA@/$tests/data}
    args=${args//@BAD@/$bad}
    args=${args//@CTRL@/$'\x01'}  # a control character
    args=${args//@LATIN1@/$'\xe9'} # a byte that is not UTF-8
    case_dir=$work/case-$n
    mkdir -p "$case_dir"
    # shellcheck disable=SC2206 # arguments are space-separated words without spaces
    argv=($args)
    argv=("${argv[@]//@SP@/ }") # @SP@: a blank inside one argument
    environment=()              # env:NAME=VALUE: set in the program's environment
    for i in "${!argv[@]}"; do
        if [[ ${argv[$i]} == env:* ]]; then
            environment+=("${argv[$i]#env:}")
            unset "argv[$i]"
        fi
    done
    argv=("${argv[@]}")
    case $program in
    fusion-plan | bench) ;; # no outputs
    *) [[ " $args" == *" --outDir="* ]] || argv+=("--outDir=$case_dir/out") ;;
    esac
    (cd "$case_dir" && env "${environment[@]}" timeout 60 "$programs/ddnn-$program" "${argv[@]}" >"$case_dir/stdout" 2>"$case_dir/stderr")
    status=$?
    why=
    if [ $status -eq 124 ]; then
        why="hung (killed after 60 s)"
    elif [ $status -ge 128 ]; then
        why="died of signal $((status - 128))"
    elif [ $status -ne 1 ]; then
        why="exit status $status, expected 1"
    elif [ "$(wc -l <"$case_dir/stderr")" -ne 1 ]; then
        why="expected one line on stderr, got $(wc -l <"$case_dir/stderr")"
    elif ! grep -qE "^ddnn-$program: error: .*$expected" "$case_dir/stderr"; then
        why="stderr does not match '$expected'"
    elif [ -n "$(find "$case_dir" -name MANIFEST -o -name summary.csv)" ]; then
        why="left output that looks complete: $(find "$case_dir" -name MANIFEST -o -name summary.csv)"
    fi
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        echo "FAIL $n: ddnn-$program $args: $why"
        head -c 600 "$case_dir/stderr" | sed 's/^/    /'
    else
        passed=$((passed + 1))
    fi
done <"$tests/bad-inputs.txt"
echo "bad inputs: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -ge 100 ]
