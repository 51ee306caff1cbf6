#!/bin/bash
# Fifty-sixth session, call 6 (.device/s56-g: call 5's G10, G7, GEMM-8192
# and S7 tables, -base and -new): the bins the landed form moves that calls
# 2, 4 and 5 did not time, both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s56-g
mkdir -p $OUT
for wm in G10:10000 G7:3000 GEMM-8192:350 GEMM-8192:740 S7:930; do
  ab_both $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
