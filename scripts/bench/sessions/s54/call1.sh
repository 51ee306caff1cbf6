#!/bin/bash
# Fifty-fourth session, call 1 (.device/s54-a): dynamic-M tables at
# ac3bd48 (-base) against -v1 (64-row bins to 1024; a single GEMM splits K
# past one m tile only where its unsplit tiles leave SMs idle) and -v2
# (v1, and no split slice under 1024 k past one m tile), each checked,
# then timed in the order given and reversed.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s54-a
mkdir -p $OUT
for wm in G9:800 G9:930 G9:650 G9:450 G9:300 G9:200 G4:300 G4:450 G4:600 G10:200 G10:450 G10:600 S8:300 S8:420 S8:880; do
  w=${wm%:*} m=${wm#*:}
  echo "$w $m $(c $D/$w-base $m) $(c $D/$w-v1 $m) $(c $D/$w-v2 $m) $(t $D/$w-base $m) $(t $D/$w-v1 $m) $(t $D/$w-v2 $m) $(t $D/$w-v2 $m) $(t $D/$w-v1 $m) $(t $D/$w-base $m)"
done 2>&1 | tee $OUT/three.txt
for wm in G5:600 G5:700 G5:800 G5:880 S1:800 S1:1500 S6:1500 S6:3000 S7:850 S7:1500 S7:3000 S2:800 G8:900; do
  ab_both $D base v1 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
echo "| chain | M | checks | base | v1 | v2 | base/v1 | base/v2 |"; echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s %s %s | %s %s | %s %s | %s %s | %.3f | %.3f |\n",$1,$2,$3,$4,$5,$6,$11,$7,$10,$8,$9,($6+$11)/($7+$10),($6+$11)/($8+$9)}' $OUT/three.txt
ab_table $OUT/ab.txt
