#!/bin/bash
# Fifty-third session, call 6 (.device/s53-f): the landed 64-row bins
# (-fine: no swapped token tiles of a multiple of 128 rows) against the
# bins before (-base, b4caef7), both orders: call 5's losses (S2, S5 at
# 450; G5 at 800) and chains and M call 5 did not time.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s53-f
mkdir -p $OUT
for wm in S2:450 S5:450 G5:800 G5:850 S1:350 S3:600 S6:700 G4:600 G7:500 G9:800 G10:400 G6:900 G1:700; do
  ab_both $D base fine ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
