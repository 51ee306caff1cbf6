#!/bin/bash
# Fifty-fifth session, call 3 (.device/s55-c): G9's and G10's bins that
# take a swapped plan without the 5 % margin (-exp against the landed
# -base), then -t5 against -exp: a swapped plan also where its estimate
# at a sample M is up to 5 % above the unswapped one's, at one M in each
# bin that this changes; both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-c
mkdir -p $OUT
for wm in G9:300 G10:360 G10:420; do
  ab_both $D base exp ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab-exp.txt
for wm in G5:800 G7:800 G4:800 S3:540 S5:540 G10:1500 G5:1500 G6:1500 S3:1500 S6:1500 G9:3000 G8:3000 S2:3000 S5:3000; do
  ab_both $D exp t5 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab-t5.txt
ab_table $OUT/ab-exp.txt
ab_table $OUT/ab-t5.txt
