#!/bin/bash
# Fifty-second session, call 7 (.device/s52-g): S6, S7, S8 at M = 300 with
# their gated GEMM swapped by hand on 3 token tiles of 104 (-g104: cuBLAS's
# tst_256x104 tiling of the merged gate|up GEMM, 70-76 x 3 = 80-86 % of two
# waves, S8 24 x 3 = 55 % of one, which the search's 90 % rule refuses)
# against the landed plans (-base), both orders; memcheck on S7's.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s52-g
mkdir -p $OUT
memcheck $D/S7-m300-g104 | tee $OUT/memcheck.txt
for w in S6-m300 S7-m300 S8-m300; do ab_both $D base g104 $w 0; done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
