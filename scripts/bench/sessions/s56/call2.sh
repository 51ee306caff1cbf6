#!/bin/bash
# Fifty-sixth session, call 2 (.device/s56-b): the G tables, GEMM-4096's and
# GEMM-8192's and three anchors compiled at HEAD (-base) and with
# gemmTflops = 6.0 and 192-token swapped tiles (-new), both orders, at one
# M in each bin whose kernel changes (plan-diff --sets dyn, sweep).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s56-b
mkdir -p $OUT
for wm in G10:870 G10:1000 G4:930 G4:3000 G4:6000 G5:350 G5:540 G5:680 G5:740 \
          G6:740 G6:1500 G7:680 G8:350 G8:680 G8:740 GEMM-4096:480 GEMM-4096:740 \
          GEMM-4096:1500 GEMM-8192:300 GEMM-8192:600 GEMM-8192:680 \
          T3-k256-n4096-m4096:0 T4-k384-m2048:0 T4-k768-m4096:0; do
  ab_both $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
