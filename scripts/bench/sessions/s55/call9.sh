#!/bin/bash
# Fifty-fifth session, call 9 (.device/s55-i): swapped plain GEMMs on
# 192-token tiles (-sw192; the lowering's 64-multiple widths other than
# 256 were kept from plain GEMMs, measured slower as weight tiles at
# M = 4096-8192) against the tables of 1da458b (-base), both orders, at
# one M in bins the change moves; memcheck on one.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-i
mkdir -p $OUT
for wm in G5:330 G8:330 G5:720 G8:720 G6:720 S3:720 G5:540 G5:930 S1:930 G4:930; do
  ab_both $D base sw192 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
memcheck $D/G8-sw192 384
ab_table $OUT/ab.txt
