#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# thesis-side-by-side.sh: run ddnn and the thesis's own ns-3.30 code on the same
# background flows and write side-by-side.csv (a differential check of ddnn).
#
# Usage:
#   tools/thesis-side-by-side.sh [--duration=S] [--jobs=N] [--resume | --report-only] SIMULATOR_DIR CELL SEED OUTDIR [-- DDNN_ARGS...]
#
#   SIMULATOR_DIR  the thesis code's built ns-3.30 tree: the `simulator` folder of
#                  GitHub hgao10/ns3 with ns-3.30.1 copied in (its README), configured
#                  and built, e.g.
#                    ./waf configure --build-profile=optimized --disable-werror \
#                      --disable-examples --disable-tests --disable-python \
#                      --enable-modules=basic-apps --out=build/optimized
#                    ./waf build -j2
#                  (--disable-werror is needed with gcc 12; the code itself is unchanged.
#                  With only basic-apps enabled the build ends in a link error of the
#                  unused scratch program traffic_control, which wants flow-monitor;
#                  main_pfabric_flows_horovod, the one run here, is built.)
#                  Its VERSION must say 3.30 or 3.30.1.
#                  The thesis code is never part of ddnn: keep it outside this repository.
#   CELL           default     data/scenarios/thesis-code-default.xml: 8 workers, 10 Gbit/s,
#                              10 us, R_cp_to_nw 4, 46 web-search flows/s per server, 2 s
#                              measured whole, priority queue, no barrier, thesis transport
#                  loss-heavy  the same with R_cp_to_nw 2 and 92 flows/s per server
#                  rcpR-flowsF the same with R_cp_to_nw R (2, 4, 8 or 16) and F flows/s per
#                              server (23, 46, 92 or 184): a cell of the thesis's grid
#                              (Tables 5.3 and 5.4), e.g. rcp8-flows184
#   SEED           ddnn's --seed (it draws the flows; the thesis code replays them)
#   OUTDIR         created if missing; gets ddnn/ (same/, low/, compare.csv, ddnn.log),
#                  thesis/same and thesis/low (the thesis code's run folders, with
#                  logs_ns3/ and stderr.log), schedule.csv, side-by-side.csv and cost.csv
#                  (side,priority,wall_s,cpu_s of each run, user + system CPU)
#   --duration=S   simulated seconds on both sides (default: the scenario's, 2)
#   --jobs=N       thesis-code runs at once, 1 or 2 (default 2)
#   --resume       keep the runs OUTDIR already holds from the same command (ddnn's, and each
#                  thesis-code run that finished): a cell cut short by a session's end goes
#                  on from its last finished run. Without it, OUTDIR's runs are made again.
#   --report-only  run nothing: rewrite side-by-side.csv and cost.csv from the runs in OUTDIR
#   DDNN_ARGS      passed to ddnn-datacenter after the cell's own arguments (they win), e.g.
#                  `-- --hostBandPackets=100` to compare a ddnn variant. Workers, data rate,
#                  link delay, duration, warm-up/cool-down, rcp or compute-ms and flow
#                  rate changed there are followed by the thesis side (read back from
#                  ddnn's resolved OUTDIR/ddnn/same/scenario.xml).
#
# Environment: DDNN_DATACENTER (default BUILD/examples/ddnn-datacenter of this repo),
# DDNN_LIB_DIR (default the folder above the program's), DDNN_DATA_DIR (default this
# repo's data/). Everything runs under nice -n 19.
#
# What is run:
#   1. ddnn-datacenter --scenario=thesis-code-default.xml --compare --seed=SEED
#      --firstPass=backward [cell args] [DDNN_ARGS]: same and low training priority on
#      identical flows, iteration 0 starting with its backward pass as the thesis code's
#      (`-- --firstPass=forward` for ddnn's own start, a whole iteration 0).
#   2. ddnn's flows (ddnn/same/flows.csv) become the thesis code's flow schedule
#      (flow_id,from_node_id,to_node_id,size_byte,start_time_ns,additional_parameters,
#      metadata; ids renumbered 0.. in start order, ddnn's id kept as metadata; ddnn's
#      server i is the thesis topology's node i, the ToR is node WORKERS).
#   3. The thesis code's main_pfabric_flows_horovod runs twice on that schedule, with the
#      run folder its tooling (runs/pfabric_flows_horovod) would write: config values of
#      its config_ns3.properties (link queue 1 packet, PfifoFast qdiscs, utilization
#      tracking every 100 ms, simulation_seed 123456789), a star of WORKERS servers and one
#      ToR, and horovod.properties with 50 layers of a 100 MB model, fusion buffer of the
#      largest layer + 1 and the compute time R_cp_to_nw * (2 (1 - 1/N) 100 MB / rate)
#      split 1/3 forward, 2/3 backward as its generator grades them per layer.
#      Training priority: same = horovod_initial_priority 0x10 (the background's ToS,
#      PfifoFast band 0), low = 0x08 (band 2).
#   4. side-by-side.csv: metric,priority,ddnn,thesis_code. Both sides over the same window
#      (ddnn's [warm-up, duration - cool-down), the whole run for these cells): per size
#      class (small <= 100 KB, large >= 10 MB) mean, sample standard deviation and p99
#      (nearest rank) FCT of completed flows and completed flows, flows started, the
#      training's mean iteration period (on both sides from one backward-pass start of the
#      last layer to the next, as the thesis code's plotting tool; ddnn's from its
#      layers.csv), its sample standard deviation over the iterations and the iterations
#      measured (a standard deviation of fewer than two samples is NA), the compute time, drops per band at the servers and at the switch, the
#      servers' TCP retransmissions per band, and the largest backlog of each band of the
#      servers' and the switch's queue discs in bytes. ddnn's figures come from its
#      summary.csv (a key of the metric's name; absent: NA). The thesis code's outputs
#      give no drop or retransmission counts and do not trace the switch's queues (NA);
#      its endpoint queue tracing (logs_ns3/Node_N_queue_band_B.txt, BytesInQueue of each
#      server band) gives the servers' backlog (a band never written to has none: 0). NA
#      is never written as 0.
#
# Exit status 1 with a one-line message on a bad argument or a failed run.
set -euo pipefail

prog=thesis-side-by-side
die() {
    printf '%s: %s\n' "$prog" "$*" >&2
    exit 1
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

duration=""
jobs=2
report_only=false
resume=false
while [[ $# -gt 0 ]]; do
    case $1 in
        --duration=*) duration=${1#--duration=} ;;
        --jobs=*) jobs=${1#--jobs=} ;;
        --report-only) report_only=true ;;
        --resume) resume=true ;;
        -h | --help)
            sed -n '3,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        --) die "arguments: SIMULATOR_DIR CELL SEED OUTDIR must come before --" ;;
        -*) die "unknown option: $1 (see --help)" ;;
        *) break ;;
    esac
    shift
done
[[ $# -ge 4 ]] || die "usage: $0 [--duration=S] [--jobs=N] [--resume | --report-only] SIMULATOR_DIR CELL SEED OUTDIR [-- DDNN_ARGS...]"
[[ $resume == false || $report_only == false ]] || die "--resume and --report-only exclude each other"
sim_arg=$1
cell=$2
seed=$3
out_arg=$4
shift 4
extra=()
if [[ $# -gt 0 ]]; then
    [[ $1 == -- ]] || die "unexpected argument: $1 (ddnn arguments go after --)"
    shift
    extra=("$@")
fi

if [[ -n $duration ]] && ! [[ $duration =~ ^[0-9]+([.][0-9]+)?$ && $duration != 0 && ! $duration =~ ^0+([.]0+)?$ ]]; then
    die "--duration must be a positive number of seconds: $duration"
fi
[[ $jobs == 1 || $jobs == 2 ]] || die "--jobs must be 1 or 2: $jobs"
[[ $seed =~ ^[1-9][0-9]{0,9}$ ]] || die "SEED must be a whole number from 1: $seed"

case $cell in
    default) cell_args=() ;;
    loss-heavy) cell_args=(--rcp=2 --flowRate=92) ;;
    *)
        [[ $cell =~ ^rcp(2|4|8|16)-flows(23|46|92|184)$ ]] ||
            die "CELL must be default, loss-heavy or rcpR-flowsF (R 2, 4, 8 or 16; F 23, 46, 92 or 184): $cell"
        cell_args=(--rcp="${BASH_REMATCH[1]}" --flowRate="${BASH_REMATCH[2]}")
        ;;
esac

[[ -d $sim_arg ]] || die "SIMULATOR_DIR is not a folder: $sim_arg"
sim=$(cd "$sim_arg" && pwd)
[[ -f $sim/waf && -f $sim/src/basic-apps/model/horovod-worker.cc && -f $sim/scratch/main_pfabric_flows_horovod/main_pfabric_flows_horovod.cc ]] ||
    die "not the thesis code's simulator folder (no waf, src/basic-apps or scratch/main_pfabric_flows_horovod): $sim"
version=$(head -n 1 "$sim/VERSION" 2>/dev/null || true)
[[ $version == 3.30 || $version == 3.30.1 ]] ||
    die "the thesis code runs on ns-3.30.1, but $sim/VERSION says '${version:-nothing}'"
[[ -d $sim/build ]] || die "the thesis code is not built (no folder $sim/build): run ./waf build there"
thesis_bin=""
for profile in optimized release default debug; do
    while IFS= read -r candidate; do
        if [[ -x $candidate ]]; then
            thesis_bin=$candidate
            break 2
        fi
    done < <(find "$sim/build" -path "*/scratch/main_pfabric_flows_horovod/*main_pfabric_flows_horovod*$profile*" -type f 2>/dev/null | sort)
done
if [[ -z $thesis_bin ]]; then
    thesis_bin=$(find "$sim/build" -path '*/scratch/main_pfabric_flows_horovod/*main_pfabric_flows_horovod*' -type f -perm -u+x 2>/dev/null | sort | head -n 1 || true)
fi
[[ -n $thesis_bin ]] || die "the thesis code is not built (no main_pfabric_flows_horovod under $sim/build): run ./waf build there"
thesis_build=$(cd "$(dirname "$thesis_bin")/../.." && pwd)
[[ -d $thesis_build/lib ]] || die "no lib folder beside the thesis code's scratch programs: $thesis_build/lib"

ddnn_bin=${DDNN_DATACENTER:-$repo/build/examples/ddnn-datacenter}
ddnn_data=${DDNN_DATA_DIR:-$repo/data}
scenario=$ddnn_data/scenarios/thesis-code-default.xml
if [[ $report_only == false ]]; then
    [[ -x $ddnn_bin ]] || die "ddnn-datacenter not found or not executable: $ddnn_bin (set DDNN_DATACENTER)"
    ddnn_lib=${DDNN_LIB_DIR:-$(cd "$(dirname "$ddnn_bin")/.." && pwd)}
    [[ -f $scenario ]] || die "scenario not found: $scenario (set DDNN_DATA_DIR)"
fi

log() { printf '%s: %s\n' "$prog" "$*" >&2; }
TIMEFORMAT='%R %U %S' # what `time` writes for cost.csv: wall, user and system seconds

if [[ $report_only == true ]]; then
    [[ -d $out_arg ]] || die "--report-only: OUTDIR is not a folder: $out_arg"
    out=$(cd "$out_arg" && pwd)
    for p in same low; do
        [[ -f $out/thesis/$p/logs_ns3/flows.csv ]] || die "--report-only: no thesis/$p/logs_ns3/flows.csv in $out"
    done
else
    mkdir -p "$out_arg" || die "cannot create OUTDIR: $out_arg"
    out=$(cd "$out_arg" && pwd)
fi

# ---- 1. ddnn, same and low priority on the same flows --------------------------------
reuse_ddnn=false
if [[ $report_only == false ]]; then
    ddnn_args=(--scenario="$scenario" --outDir="$out/ddnn" --compare --progress=never --seed="$seed" --firstPass=backward)
    ddnn_args+=("${cell_args[@]}")
    [[ -z $duration ]] || ddnn_args+=(--durationS="$duration")
    ddnn_args+=("${extra[@]}")
    # What the ddnn run was: program (and its build), library, data and arguments.
    command_record=$(printf '%s\n' "$ddnn_bin $(stat -c '%s %Y' "$ddnn_bin")" "$ddnn_lib" "$ddnn_data" "${ddnn_args[@]}")
    if [[ $resume == true && -f $out/ddnn/command && $(cat "$out/ddnn/command") == "$command_record" ]]; then
        reuse_ddnn=true
        log "ddnn: kept the run in $out/ddnn (--resume)"
    else
        rm -rf "$out/ddnn" "$out/thesis" "$out/schedule.csv"
        mkdir -p "$out/ddnn"
        log "ddnn: $ddnn_bin ${ddnn_args[*]}"
        if ! { time (LD_LIBRARY_PATH="$ddnn_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" DDNN_DATA_DIR="$ddnn_data" \
            nice -n 19 "$ddnn_bin" "${ddnn_args[@]}" >"$out/ddnn/ddnn.log" 2>&1); } 2>"$out/ddnn/time"; then
            die "ddnn-datacenter failed: $(tail -n 1 "$out/ddnn/ddnn.log")"
        fi
        printf '%s\n' "$command_record" >"$out/ddnn/command"
    fi
    rm -f "$out/side-by-side.csv" "$out/cost.csv"
    mkdir -p "$out/thesis"
fi
for p in same low; do
    [[ -f $out/ddnn/$p/summary.csv && -f $out/ddnn/$p/flows.csv ]] || die "ddnn wrote no $p/summary.csv or $p/flows.csv in $out/ddnn"
done

# The resolved scenario: what the thesis side must follow.
resolved=$out/ddnn/same/scenario.xml
xml_attr() { # element attribute
    local v
    v=$(sed -n "s/.*<$1[^>]*[[:space:]]$2=\"\\([^\"]*\\)\".*/\\1/p" "$resolved" | head -n 1)
    [[ -n $v ]] || die "no <$1 $2> in $resolved"
    printf '%s\n' "$v"
}
workers=$(xml_attr topology workers)
data_rate=$(xml_attr topology data-rate)
delay_us=$(xml_attr topology delay-us)
topo_kind=$(xml_attr topology kind)
qdisc=$(xml_attr topology queue-disc)
rcp=$(xml_attr training rcp)
compute_ms=$(xml_attr training compute-ms)
dur_s=$(xml_attr run duration-s)
warm_s=$(xml_attr run warmup-s)
cool_s=$(xml_attr run cooldown-s)
[[ $topo_kind == single-tor ]] || die "the thesis code runs one ToR only; ddnn's scenario has topology $topo_kind"
[[ $qdisc == pfifo-fast ]] || log "warning: ddnn runs queue-disc $qdisc, the thesis code PfifoFast"

rate_mbps=$(awk -v r="$data_rate" 'BEGIN {
    if (match(r, /^[0-9.]+/) == 0) exit 1
    n = substr(r, 1, RLENGTH); u = tolower(substr(r, RLENGTH + 1))
    if (u == "gbps") m = n * 1000; else if (u == "mbps") m = n; else if (u == "kbps") m = n / 1000;
    else if (u == "bps") m = n / 1e6; else exit 1
    printf "%.6f\n", m }') || die "cannot read the data rate $data_rate"
awk_num() { awk "BEGIN { printf \"%.0f\n\", $1 }"; }
dur_ns=$(awk_num "$dur_s * 1e9")
win_lo_ns=$(awk_num "$warm_s * 1e9")
win_hi_ns=$(awk_num "($dur_s - $cool_s) * 1e9")
delay_ns=$(awk_num "$delay_us * 1000")
# The thesis's generator: T = R * 2 (1 - 1/N) * 100 MB * 8 / rate (ms), unless compute-ms is set.
iter_ms=$(awk -v r="$rcp" -v c="$compute_ms" -v n="$workers" -v m="$rate_mbps" 'BEGIN {
    if (c > 0) t = c; else t = r * 100e6 * 2 * (1 - 1 / n) * 8 / (m * 1e3)
    printf "%.10g\n", t }')

# ---- 2. ddnn's flows as the thesis code's schedule -----------------------------------
if [[ $report_only == false && $reuse_ddnn == false ]]; then
    awk -F, -v dur="$dur_ns" -v n="$workers" '
        NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            if (!("id" in col) || !("source" in col) || !("destination" in col) || !("size_bytes" in col) || !("start_s" in col)) {
                print "flows.csv lacks id,source,destination,size_bytes,start_s" > "/dev/stderr"; exit 2 }
            next }
        {
            s = $col["start_s"] * 1e9; ns = sprintf("%.0f", s)
            if ($col["source"] >= n || $col["destination"] >= n) { print "flow " $col["id"] " names a server beyond " n > "/dev/stderr"; exit 2 }
            if (ns + 0 >= dur) next
            printf "%s,%s,%s,%s,%s\n", ns, $col["id"], $col["source"], $col["destination"], $col["size_bytes"]
        }' "$out/ddnn/same/flows.csv" | sort -t, -k1,1n -k2,2n |
        awk -F, '{ printf "%d,%s,%s,%s,%s,,ddnn%s\n", NR - 1, $3, $4, $5, $1, $2 }' >"$out/schedule.csv" ||
        die "cannot convert $out/ddnn/same/flows.csv into a schedule"
    [[ -s $out/schedule.csv ]] || die "ddnn generated no flows"
fi

# ---- 3. the thesis code at same (0x10) and low (0x08) priority -----------------------
num_layers=50
write_run_dir() { # dir tos
    local d=$1 tos=$2 i
    mkdir -p "$d"
    cp "$out/schedule.csv" "$d/schedule.csv"
    cat >"$d/config_ns3.properties" <<EOF
# Mandatory properties
filename_topology="topology_single.properties"
horovod_config_file="horovod.properties"
simulation_end_time_ns=$dur_ns
simulation_seed=123456789
link_data_rate_megabit_per_s=$rate_mbps
link_delay_ns=$delay_ns
link_max_queue_size_pkts=1
disable_qdisc_endpoint_tors_xor_servers=false
disable_qdisc_non_endpoint_switches=false
enable_link_utilization_tracking=true
link_utilization_tracking_interval_ns=100000000
flow_schedule_filename="schedule.csv"
horovod_initial_priority=$tos
run_horovod=true
EOF
    {
        printf 'num_nodes=%d\nnum_undirected_edges=%d\n' $((workers + 1)) "$workers"
        printf 'switches=set(%d)\nswitches_which_are_tors=set(%d)\n' "$workers" "$workers"
        printf 'servers=set('
        for ((i = 0; i < workers; i++)); do printf '%s%d' "$([[ $i -gt 0 ]] && printf ,)" "$i"; done
        printf ')\nundirected_edges=set('
        for ((i = 0; i < workers; i++)); do printf '%s%d-%d' "$([[ $i -gt 0 ]] && printf ,)" "$i" "$workers"; done
        printf ')\n'
    } >"$d/topology_single.properties"
    # Layers: L/2 of m = int(2 * 100 MB / (9 L)) bytes, then 4 m up to 3L/4, then 12 m.
    awk -v L="$num_layers" -v T="$iter_ms" -v d="$d" 'BEGIN {
        m = int(2 * 100e6 / (9 * L)); big = 0
        fpt = T / 3; bpt = 2 * T / 3
        fpd = 2 * fpt / (L * (L - 1)); fp0 = 2 * fpt / L; bpd = 2 * bpt / (L * (L - 1))
        for (i = 0; i < L; i++) {
            if (i < L / 2) s = m; else if (i <= 0.75 * L) s = 4 * m; else s = 12 * m
            if (s > big) big = s
            fp = fp0 - i * fpd; bp = i * bpd
            if (i == L - 1) fp = fpd
            if (i == 0) bp = bpd
            printf "%d,%d\n", i, s > (d "/layer_size.csv")
            printf "%d,%.15g\n", i, fp > (d "/fp_compute_time.csv")
            printf "%d,%.15g\n", i, bp > (d "/bp_compute_time.csv")
        }
        printf "%d\n", big + 1 > (d "/fusion_size") }'
    cat >"$d/horovod.properties" <<EOF
num_workers=$workers
num_layers=$num_layers
fusion_buffer_size=$(cat "$d/fusion_size")
layer_size_file=layer_size.csv
fp_compute_time_file=fp_compute_time.csv
bp_compute_time_file=bp_compute_time.csv
EOF
    rm -f "$d/fusion_size"
}

# Runs the thesis code in a run folder; its status file says ok once it finished, which
# --resume keeps.
run_thesis() { # dir tos
    local d=$1
    if [[ $(cat "$d/status" 2>/dev/null) == ok ]]; then
        log "thesis code: kept the finished run in $d (--resume)"
        return 0
    fi
    rm -rf "$d"
    write_run_dir "$d" "$2"
    # Its worker is built with DEBUG on and stdout unbuffered: a write per received
    # chunk. Reading that through a pipe costs more than the simulation, so stdout goes
    # to /dev/null (its errors are exceptions, on stderr; its timings in logs_ns3/).
    if ! { time (cd "$d" && LD_LIBRARY_PATH="$thesis_build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        nice -n 19 "$thesis_bin" --run_dir="$d" >/dev/null 2>"$d/stderr.log"); } 2>"$d/time"; then
        echo "failed $(tail -n 1 "$d/stderr.log")" >"$d/status"
        return 1
    fi
    [[ $(cat "$d/logs_ns3/finished.txt" 2>/dev/null) == Yes ]] || {
        echo "unfinished" >"$d/status"
        return 1
    }
    echo ok >"$d/status"
}

if [[ $report_only == false ]]; then
    log "thesis code: $thesis_bin ($(awk -v d="$dur_s" 'BEGIN { printf "%g", d }') s, T = $iter_ms ms, $(wc -l <"$out/schedule.csv") flows)"
    if [[ $jobs == 2 ]]; then
        run_thesis "$out/thesis/same" 0x10 &
        pid_same=$!
        run_thesis "$out/thesis/low" 0x08 &
        pid_low=$!
        rc=0
        wait "$pid_same" || rc=1
        wait "$pid_low" || rc=1
        [[ $rc == 0 ]] || die "the thesis code failed: same: $(cat "$out/thesis/same/status" 2>/dev/null), low: $(cat "$out/thesis/low/status" 2>/dev/null) (see stderr.log there)"
    else
        run_thesis "$out/thesis/same" 0x10 || die "the thesis code failed at same priority: $(cat "$out/thesis/same/status")"
        run_thesis "$out/thesis/low" 0x08 || die "the thesis code failed at low priority: $(cat "$out/thesis/low/status")"
    fi
fi

# ---- 4. side-by-side.csv --------------------------------------------------------------
summary_get() { # file key -> value or NA
    awk -F, -v k="$2" '$1 == k { v = $2 } END { if (v == "" || v == "nan" || v == "-nan") v = "NA"; print v }' "$1"
}

# Sample standard deviation of a[1..n] around mean m, as ddnn's summary: NA below two.
awk_sd='function sd(a, n, m,    i, q) {
            if (n < 2) return "NA"
            for (i = 1; i <= n; i++) q += (a[i] - m) ^ 2
            return sprintf("%.9g", sqrt(q / (n - 1))) }'

# The thesis code's flows: key,value lines like ddnn's summary, same window and estimator.
thesis_flow_figures() { # run dir
    awk -F, -v lo="$win_lo_ns" -v hi="$win_hi_ns" '
        '"$awk_sd"'
        function sortn(a, n,    i, t) { # heap sort (POSIX awk has no sort)
            for (i = int(n / 2); i >= 1; i--) sift(a, i, n)
            for (i = n; i > 1; i--) { t = a[1]; a[1] = a[i]; a[i] = t; sift(a, 1, i - 1) }
        }
        function sift(a, i, n,    c, t) {
            while ((c = 2 * i) <= n) {
                if (c < n && a[c + 1] > a[c]) c++
                if (a[i] >= a[c]) return
                t = a[i]; a[i] = a[c]; a[c] = t; i = c
            }
        }
        function emit(cls,    n, sum, i, r) {
            n = cnt[cls]
            printf "flows_%s_started,%d\n", cls, started[cls]
            printf "flows_%s_completed,%d\n", cls, n
            if (n == 0) { printf "fct_%s_mean_s,NA\nfct_%s_sd_s,NA\nfct_%s_p99_s,NA\n", cls, cls, cls; return }
            sum = 0
            for (i = 1; i <= n; i++) { v[i] = fct[cls, i]; sum += v[i] }
            printf "fct_%s_mean_s,%.9g\nfct_%s_sd_s,%s\n", cls, sum / n, cls, sd(v, n, sum / n)
            sortn(v, n)
            r = 0.99 * n; r = (r == int(r)) ? r : int(r) + 1
            printf "fct_%s_p99_s,%.9g\n", cls, v[r]
            delete v
        }
        {
            size = $4 + 0; start = $5 + 0
            if (start < lo || start >= hi) next
            c1 = ""; if (size <= 100000) c1 = "small"; else if (size >= 10000000) c1 = "large"
            started["all"]++; if (c1 != "") started[c1]++
            if ($9 != "YES") next
            f = ($7 + 0) / 1e9
            fct["all", ++cnt["all"]] = f
            if (c1 != "") fct[c1, ++cnt[c1]] = f
        }
        END { emit("small"); emit("large"); emit("all") }' "$1/logs_ns3/flows.csv"
}

# The iteration period, at the same phase on both sides (the thesis code's plotting tool's):
# worker w's period k runs from its k-th backward-pass start of the last layer (inside the
# window) to the next. Period k is averaged over the workers, the mean is over the periods
# (iterations_measured counts them). Input: worker,time_ns lines, each worker's in time order.
period_figures() {
    awk -F, -v lo="$win_lo_ns" -v hi="$win_hi_ns" "$awk_sd"'
        {
            w = $1; t = $2 + 0
            if ((w in prev) && prev[w] >= lo && prev[w] < hi) {
                k = ++seen[w]; sum[k] += t - prev[w]; cnt[k]++; if (k > kmax) kmax = k
            }
            prev[w] = t
        }
        END {
            for (i = 1; i <= kmax; i++) { p[++n] = sum[i] / cnt[i] / 1e9; total += p[n] }
            if (n > 0) printf "iteration_time_mean_s,%.9g\niteration_time_sd_s,%s\n", total / n, sd(p, n, total / n)
            else printf "iteration_time_mean_s,NA\niteration_time_sd_s,NA\n"
            printf "iterations_measured,%d\n", n }'
}

thesis_iteration_figures() { # run dir
    local f
    find "$1/logs_ns3" -name 'HorovodWorker_*_progress.txt' | sort | while read -r f; do
        awk -F, -v w="$f" -v last=$((num_layers - 1)) \
            '$2 == last && $3 == "BP_Start" { print w "," $4 }' "$f"
    done | period_figures
}

# ddnn's layers.csv (seconds). Its summary's iteration_time_mean_s times a period from one
# iteration's start (its forward pass) instead: the first period of a run without warm-up
# then lacks the collectives that later periods wait for, and the side-by-side would compare
# two estimators.
ddnn_iteration_figures() { # run dir
    [[ -f $1/layers.csv ]] || die "ddnn wrote no layers.csv in $1"
    awk -F, -v last=$((num_layers - 1)) 'NR > 1 && $3 == last && $4 == "backward" {
            printf "%s,%.0f\n", $1, $5 * 1e9 }' "$1/layers.csv" |
        sort -t, -k1,1n -k2,2n | period_figures
}

# The largest backlog of each band over the servers' queue discs (bytes).
thesis_queue_figures() { # run dir
    local b node f files
    for b in 0 1 2; do
        files=()
        for ((node = 0; node < workers; node++)); do
            f=$1/logs_ns3/Node_${node}_queue_band_$b.txt
            [[ -f $f ]] && files+=("$f")
        done
        if [[ ${#files[@]} -gt 0 ]]; then
            awk -v b="$b" '$1 == "TcBytesInQueue" && $4 + 0 > m { m = $4 + 0 }
                END { printf "max_queue_bytes_servers_band%d,%d\n", b, m }' "${files[@]}"
        elif [[ -f $1/logs_ns3/Node_0_queue_band_0.txt ]]; then
            printf 'max_queue_bytes_servers_band%d,0\n' "$b" # traced, never used
        else
            printf 'max_queue_bytes_servers_band%d,NA\n' "$b"
        fi
    done
}

metrics=(flows_all_started flows_all_completed
    flows_small_started flows_small_completed fct_small_mean_s fct_small_sd_s fct_small_p99_s
    flows_large_started flows_large_completed fct_large_mean_s fct_large_sd_s fct_large_p99_s
    fct_all_mean_s fct_all_sd_s fct_all_p99_s
    iteration_time_mean_s iteration_time_sd_s iterations_measured compute_time_s)
for where in servers switches; do
    for b in 0 1 2; do metrics+=("drops_${where}_band$b"); done
done
for b in 0 1 2; do metrics+=("retransmissions_servers_band$b"); done
for where in servers switches; do
    for b in 0 1 2; do metrics+=("max_queue_bytes_${where}_band$b"); done
done

{
    echo "metric,priority,ddnn,thesis_code"
    for p in same low; do
        ddnn_keys=$out/ddnn/figures-$p.csv
        { cat "$out/ddnn/$p/summary.csv"; ddnn_iteration_figures "$out/ddnn/$p"; } >"$ddnn_keys"
        thesis_keys=$out/thesis/$p/figures.csv
        {
            thesis_flow_figures "$out/thesis/$p"
            thesis_iteration_figures "$out/thesis/$p"
            thesis_queue_figures "$out/thesis/$p"
            awk -v t="$iter_ms" 'BEGIN { printf "compute_time_s,%.9g\n", t / 1000 }'
        } >"$thesis_keys"
        for m in "${metrics[@]}"; do
            printf '%s,%s,%s,%s\n' "$m" "$p" "$(summary_get "$ddnn_keys" "$m")" "$(summary_get "$thesis_keys" "$m")"
        done
    done
} >"$out/side-by-side.csv.tmp"
mv "$out/side-by-side.csv.tmp" "$out/side-by-side.csv"

# cost.csv from each run's `time` line (real user system, as TIMEFORMAT above); NA for a
# run made before the tool kept it.
cost_row() { # side priority file
    awk -v s="$1" -v p="$2" 'NF == 3 && $1 ~ /^[0-9.]+$/ { w = $1; c = $2 + $3 }
        END { if (w == "") printf "%s,%s,NA,NA\n", s, p; else printf "%s,%s,%.1f,%.1f\n", s, p, w, c }' "$3" 2>/dev/null ||
        printf '%s,%s,NA,NA\n' "$1" "$2"
}
{
    echo "side,priority,wall_s,cpu_s"
    cost_row ddnn same+low "$out/ddnn/time"
    cost_row thesis_code same "$out/thesis/same/time"
    cost_row thesis_code low "$out/thesis/low/time"
} >"$out/cost.csv"
log "wrote $out/side-by-side.csv; cost (side,priority,wall_s,cpu_s): $(tail -n +2 "$out/cost.csv" | paste -sd ' ')"
