#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Draws ddnn's 100x100 icon (the ns-3 App Store's size) into FILE.png with gnuplot: a training
# job's periodic bursts (tall bars) among other tenants' short flows (low bars).
# Usage: tools/make-icon.sh FILE.png
set -euo pipefail
[ $# -eq 1 ] && [[ $1 == *.png ]] || { echo "usage: $0 FILE.png" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "$0: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
gnuplot <<GNUPLOT
set terminal pngcairo size 100,100 background rgb "#1d3557"
set output "$1"
unset border; unset tics; unset key
set margins 0,0,0,0
set xrange [0:10]; set yrange [0:10]
set style fill solid noborder
set boxwidth 0.6
# The other tenants' flows, then the training job's bursts above them.
set object 1 rect from 0.5,1 to 9.5,1.3 fc rgb "#a8dadc"
plot '-' using 1:2 with boxes lc rgb "#a8dadc", '-' using 1:2 with boxes lc rgb "#e63946"
1 2.2
2 1.8
4 2.5
5 1.6
7 2.1
8 1.9
9 2.4
e
3 8.5
6 8.5
e
GNUPLOT
