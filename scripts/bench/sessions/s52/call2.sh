#!/bin/bash
# Fifty-second session, call 2 (.device/s52-a, .device/s52-b): racecheck of
# our kernels alone (no --check: ff-run's cuBLAS reference drew the hazards
# of call 1) on two staged-store bundles; then the fourteen S chains whose
# gated GEMM the search does not swap, searched (-base) against it swapped
# by hand with staged stores (-g<W>, mkgated.py), both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
for w in S2-m300-st G5-m300-st; do
  echo "racecheck $w: $(timeout 150 compute-sanitizer --tool racecheck $ffrun .device/s52-a/$w 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|Error|error" | head -3 | tr '\n' ' ')"
done 2>&1 | tee $OUT/racecheck.txt
D=.device/s52-b
for b in $(ls $D | grep -- '-g[0-9]*$'); do
  w=${b%-g*}; v=${b##*-}
  ab_line $D base $v $w 0; ab_line $D $v base $w 0
done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | base us (4 runs) | variant us (4 runs) | base / variant |"
echo "|---|---|---|---|---|---|"
paste -d' ' <(sed -n 'p;n' $OUT/ab.txt) <(sed -n 'n;p' $OUT/ab.txt) | awk '{printf "| %s | %s | %s/%s | %s %s %s %s | %s %s %s %s | %.3f |\n", $1, $7, $4, $16, $6, $10, $20, $24, $8, $12, $18, $22, ($6+$10+$20+$24)/($8+$12+$18+$22)}'
