#!/bin/bash
# Sixty-sixth session, call 4: the roofline chains' down GEMM on twice the
# CTAs. .device/s66-alt (down_variants.py .device/s66-alt G8 S1 S2 S4 S5
# S6 S7 S8 G5 S3) holds per chain W-base (the search's sequence) and, where
# the search has such a lowerable plan for the down GEMM, W-split2x (the
# same n tile split twice as far along K) and W-nhalf (half the n tile at
# the same split). Each pair checked and timed as CUDA-graph replays in
# both orders (ab_both). Then racecheck of S5 at M = 128 alone (its
# racecheck never finished next to others), limited to RACE_LIMIT s.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s66-alt
for d in $D/*-split2x $D/*-nhalf; do
  n=$(basename $d); w=${n%-*}; v=${n##*-}
  ab_both $D base $v $w 0
done > $OUT/ab.txt
ab_table $OUT/ab.txt | tee $OUT/ab.md
s=$(date +%s); timeout ${RACE_LIMIT:-200} compute-sanitizer --tool racecheck --error-exitcode 9 \
  $ffrun .device/s65-std/S5 > $OUT/race-S5.log 2>&1; rc=$?
echo "racecheck S5 rc=$rc $(( $(date +%s) - s ))s $(grep -E 'RACECHECK SUMMARY' $OUT/race-S5.log)"
