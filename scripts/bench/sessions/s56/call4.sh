#!/bin/bash
# Fifty-sixth session, call 4 (.device/s56-e): G4's, G5's, G8's, S1's,
# S3's, S7's, S8's and GEMM-8192's dynamic-M tables compiled at HEAD (-base)
# and with the swapped products' own wgmma rate (gemmSwappedTflops = 6.0)
# and 192-token swapped tiles (-new), at one M in each bin whose kernel
# changes (plan-diff --sets dyn): each checked, then timed base, new, base,
# new (ab_line).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s56-e
mkdir -p $OUT
for wm in G4:870 G4:930 G4:3000 G4:6000 G4:10000 G5:350 G5:540 G5:680 G5:740 \
          G5:1000 G8:350 G8:680 G8:740 G8:870 G8:1500 G8:3000 GEMM-8192:300 \
          GEMM-8192:600 GEMM-8192:680 GEMM-8192:1500 GEMM-8192:3000 S1:870 \
          S1:930 S1:1000 S1:1500 S1:3000 S3:540 S3:740 S3:1500 S7:870 S7:1000 \
          S7:1500 S8:540 S8:680 S8:740 S8:870 S8:1500; do
  ab_line $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
echo "| chain | M | check | base us | new us | base / new |"
echo "|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s %s | %s %s | %.3f |\n", $1, $2, $4, $6, $10, $8, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
