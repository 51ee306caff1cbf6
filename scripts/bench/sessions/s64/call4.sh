#!/bin/bash
# Sixty-fourth session, call 4: is S2's racecheck slower with the change?
# HEAD's S2 (S2-base, .device/s63-std2) and the change's (S2-new,
# .device/s64-std) under racecheck side by side, each limited to LIMIT s;
# then each without the sanitizer, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s64-rc
for v in base new; do
  ( s=$(date +%s); timeout ${LIMIT:-250} compute-sanitizer --tool racecheck --error-exitcode 9 \
      $ffrun $D/S2-$v > $OUT/race-S2-$v.log 2>&1; rc=$?
    echo "S2-$v rc=$rc $(( $(date +%s) - s ))s $(grep -E 'RACECHECK SUMMARY' $OUT/race-S2-$v.log)" ) &
done; wait
for v in base new; do echo "S2-$v $($ffrun $D/S2-$v --check 2>&1 | grep -oE 'PASS|FAIL' | head -1)"; done
