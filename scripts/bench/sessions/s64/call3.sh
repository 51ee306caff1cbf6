#!/bin/bash
# Sixty-fourth session, call 3: racecheck on the eleven bundles whose
# racecheck ran past call 2's 120 s (eight in parallel there), all at once
# here with a longer limit, at their static M.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in C4-b1 G5-m16 G5-m64 G8 G9 S1 S2 S3-m16 S3-m64 S4 S5; do
  ( s=$(date +%s); timeout ${LIMIT:-480} compute-sanitizer --tool racecheck --error-exitcode 9 \
      $ffrun .device/s64-std/$b > $OUT/race-$b.log 2>&1; rc=$?
    echo "$b rc=$rc $(( $(date +%s) - s ))s $(grep -E 'RACECHECK SUMMARY' $OUT/race-$b.log)" ) &
done; wait
