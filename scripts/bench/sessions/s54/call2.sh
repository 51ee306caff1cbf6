#!/bin/bash
# Fifty-fourth session, call 2 (.device/s54-b): dynamic-M tables at
# ac3bd48 (-base) against -v3 (64-row bins to 1024; no split K of a single
# GEMM past one m tile where K < N), both orders, at M of the new bins
# call 1 did not time and G5's changed bins; memcheck on one new table.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s54-b
mkdir -p $OUT
for wm in G1:800 G6:800 G6:870 G10:800 G10:900 S3:800 S3:930 S5:800 S5:930 S6:800 S6:930 S1:930 S7:800 S7:930 G5:600 G5:800 G5:870; do
  ab_both $D base v3 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
memcheck $D/S1-v3 830
ab_table $OUT/ab.txt
