#!/bin/bash
# Fifty-third session, call 5 (.device/s53-e): dynamic-M tables on 64-row
# bins from 257 to 1024 (-fine) against the landed bins (-base, b4caef7),
# both orders, at M inside 257-1024 (call 4 compared them in two bench.py
# processes, where identical kernels differed by up to 4.5 %).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s53-e
mkdir -p $OUT
for wm in S1:650 S1:800 S2:450 S2:800 S3:450 S3:800 S4:450 S4:800 S5:450 S5:900 \
          S7:650 S7:800 S8:800 G2:800 G4:300 G4:800 G5:300 G5:800 G8:300 G8:800; do
  ab_both $D base fine ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
