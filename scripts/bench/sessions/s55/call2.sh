#!/bin/bash
# Fifty-fifth session, call 2 (.device/s55-a): the landed dynamic-M tables
# (-base) against -exp, whose bins take a swapped plan wherever its mean
# estimate over the bin is below the unswapped one's at no sample M worse
# (no 5 % margin), both orders, at one M in each bin that changes (G9 and G10 in call 3).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-a
mkdir -p $OUT
for wm in G5:600 G6:600 G8:600 S3:600 S7:600 G6:680 G4:680 S1:680 S8:680 S1:800 S8:800 S3:870 S5:870 S6:1000 S2:300; do
  ab_both $D base exp ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
