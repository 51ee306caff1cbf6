#!/bin/bash
# Fifty-second session, call 2 (.device/s52-a, .device/s52-b): racecheck of
# our kernels alone (no --check: ff-run's cuBLAS reference drew the hazards
# of call 1) on two staged-store bundles; then the fourteen S chains whose
# gated GEMM the search does not swap, searched (-base) against it swapped
# by hand with staged stores (-g<W>, s51/mkgated.py with STORE_RESERVE=4096),
# both orders.
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
  ab_both $D base $v $w 0
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
