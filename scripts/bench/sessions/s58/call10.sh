#!/bin/bash
# Fifty-eighth session, call 10 (.device/s58-i/tables.tar.xz: plan-diff.py's
# sides, `--sets dyn,sweep`, OLD the landed abd4384's ff-opt, NEW a test
# build pricing the ring of a split-K single GEMM whose CTAs fit one wave
# at 1700 ns of latency instead of gemmStreamLatencyNs = 2000: the twelve
# tables it moves (W-base, W-new) and GEMM-4096 at M = 16, 64, 128): one M
# in each moved bin, one order (ab_line: the new side checked, then base,
# new, base, new, each the median of 20 graph replays of 10 launches).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT /tmp/abl && tar xJf .device/s58-i/tables.tar.xz -C /tmp/abl
D=/tmp/abl
P="G10:680 G4:680 G4:930 G4:1000 G6:480 G6:600 G6:680 G6:740 G6:800 G8:150
G8:220 G8:300 G8:350 G9:200 G9:300 G9:350 G9:420 S1:200 S2:150 S2:220 S2:300
S2:350 S4:150 S4:220 S4:300 S4:350 S5:150 S5:220 S5:300 S5:350 S6:350 S6:440
S6:540 S6:600 S7:200 S7:300 S8:480 S8:680 S8:740 S8:800 GEMM-4096-m16:0
GEMM-4096-m64:0 GEMM-4096-m128:0"
( for p in $P; do ab_line $D base new ${p%:*} ${p#*:}; done ) 2>&1 | tee $OUT/ab.txt
echo "| chain | M | check new | base us | new us | base / new |"
echo "|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s %s | %s %s | %.3f |\n", $1, $2, $4, $6, $10, $8, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
