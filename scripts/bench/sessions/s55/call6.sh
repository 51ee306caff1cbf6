#!/bin/bash
# Fifty-fifth session, call 6 (.device/s55-f): the plain FFNs' tables with
# 64-row bins from 769 to 1024 (-f1024, as the gated FFNs' since the
# fifty-fourth session) against the landed ones (-base, one 769-1024 bin),
# both orders, now that their bins weigh swapped plans at any M without a
# margin.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-f
mkdir -p $OUT
for wm in G5:800 G5:870 G5:960 G8:800 G8:870 G8:960 G6:800 G6:870 G6:960 G9:800 G9:870 G9:960 G4:800 G4:870 G4:960 G7:800 G7:930 G10:800 G10:930 G2:800 G2:930 G1:800 G1:930; do
  ab_both $D base f1024 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
