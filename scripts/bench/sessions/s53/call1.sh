#!/bin/bash
# Fifty-third session, call 1 (.device/s53-a): dynamic-M bundles whose bins
# the search now runs swapped (getBinSwappedPlan; -sw) against the same
# chains' bundles before (-base). First --check of -sw at the edges of
# every swapped bin (a last token tile of 1-8 rows where M allows) and
# memcheck on two, then both orders at points inside the swapped bins.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s53-a
mkdir -p $OUT
{
  for wm in G5:257 G5:384 G5:513 G5:705 G5:768 G8:257 G8:321 G8:384 S2:769 S2:1024 \
            S3:385 S3:393 S3:512 S5:385 S5:512 S6:1025 S6:1249 S6:2048 \
            S7:385 S7:417 S7:512 S8:513 S8:641 S8:768; do
    w=${wm%:*}; m=${wm#*:}
    echo "check $w-sw M=$m $(c $D/$w-sw $m)"
  done
  memcheck $D/S8-sw 641
  memcheck $D/S7-sw 417
} 2>&1 | tee $OUT/check.txt
for wm in G5:300 G5:650 G8:300 G8:380 S2:800 S2:1000 S3:400 S3:500 S5:450 \
          S6:1200 S6:1800 S7:400 S7:500 S8:550 S8:650 S8:750; do
  ab_both $D base sw ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
