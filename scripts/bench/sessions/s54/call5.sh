#!/bin/bash
# Fifty-fourth session, call 5 (.device/s54-d): the landed dynamic-M
# tables (-base, call 3's bundles) against -exp, whose search ranks
# swapped plans at every M (not only where 128-row tiles pad M by a tenth
# or more), both orders, where call 4 found cuBLAS running swapped
# 152-token tiles (M = 600) and in other bins the change moves.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s54-d
mkdir -p $OUT
for wm in G6:600 G6:680 G8:680 S8:600 S2:680 S4:680 S5:680 S7:680 S1:680 S3:680 G5:600 G5:680 S6:800 S3:930 S3:330 G5:330; do
  ab_both $D base exp ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
