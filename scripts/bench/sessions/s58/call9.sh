#!/bin/bash
# Fifty-eighth session, call 9 (.device/s58-h/tables.tar.xz: plan-diff.py's
# sides of the 14 tables that gemmStreamLatencyNs = 1700 moves, `--sets
# dyn`, OLD the landed abd4384's ff-opt, NEW a test build reading the
# latency from FF_LAT; W-base and W-new): one M in each moved bin, one
# order (ab_line: the new side checked, then base, new, base, new, each
# the median of 20 graph replays of 10 launches).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT /tmp/abl && tar xJf .device/s58-h/tables.tar.xz -C /tmp/abl
D=/tmp/abl
P="S1:200 S2:300 S2:350 S4:150 S4:220 S4:300 S4:350 S5:150 S5:220 S5:300 S5:350
S6:350 S6:440 S6:540 S6:600 S7:200 S7:300 S7:1500 S8:480 S8:540 S8:680 S8:740
S8:800 G4:680 G4:740 G4:800 G4:930 G4:1000 G4:3000 G6:480 G6:540 G6:680 G6:740
G6:800 G8:150 G8:220 G8:300 G8:350 G9:200 G9:300 G9:350 G9:920 G9:980 G3:920
G3:1000 G7:32 G7:100 G7:600 G7:680 G7:740 G7:800 G10:350"
( for p in $P; do ab_line $D base new ${p%:*} ${p#*:}; done ) 2>&1 | tee $OUT/ab.txt
echo "| chain | M | check new | base us | new us | base / new |"
echo "|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s %s | %s %s | %.3f |\n", $1, $2, $4, $6, $10, $8, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
