#!/bin/bash
# Fifty-second session, call 1 (.device/s52-a): the eighteen exact-M chains
# with a swapped GEMM of one CTA along k, their epilogue staged through
# shared memory by stmatrix .trans and stored in 16-byte rows (-st) against
# the landed element-wise and paired stores (-base), both orders; memcheck
# and racecheck on chains with 80-, 152- and 160-token tiles.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s52-a
mkdir -p $OUT
for w in S2-m300-st G5-m300-st S7-m800-st; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for w in S2-m300-st; do
  echo "racecheck $w: $(timeout 300 compute-sanitizer --tool racecheck $ffrun $D/$w --check 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
done 2>&1 | tee $OUT/racecheck.txt
for w in G4-m800 G5-m300 G5-m800 G6-m800 G7-m800 G8-m300 G8-m800 G9-m300 S1-m300 S1-m800 S2-m300 S2-m800 S3-m800 S4-m300 S4-m800 S5-m800 S7-m800 S8-m800; do
  ab_both $D base st $w 0
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
