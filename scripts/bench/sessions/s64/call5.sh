#!/bin/bash
# Sixty-fourth session, call 5: racecheck one at a time on the seven
# bundles whose racecheck ran past its limit in calls 2 and 3 (many
# sanitizer processes at once: S2 took 3 s alone in call 4); then
# reliability.sh over the dynamic-M G and S bundles (.device/s64-dyn) at
# M = 1000, four jobs, without the GPU tests and controls (call 2 ran them).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in G8 S4 S5 G5-m16 G5-m64 S3-m16 S3-m64; do
  s=$(date +%s); timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 \
    $ffrun .device/s64-std/$b > /tmp/race-$b.log 2>&1; rc=$?
  echo "racecheck $b rc=$rc $(( $(date +%s) - s ))s $(grep -E 'RACECHECK SUMMARY' /tmp/race-$b.log)"
done | tee $OUT/race.txt
RELIABILITY_ROOTS=.device/s64-dyn SAN_MS=1000 SKIP_TESTS=1 CONTROLS=0 JOBS=4 TIMEOUT=100 \
  timeout ${DYN_LIMIT:-400} bash scripts/bench/sessions/s64/call2.sh
