#!/bin/bash
# Twenty-fifth session: persistent solo kernels with resident weights (B
# and D loaded once per CTA, the ring carrying A only) against the same
# plans streaming B and D per tile (-base, resident-weights=false), both
# weight layouts checked, deeper A rings for C5-b32 (-rws5/-rws6, and the
# streaming kernel at 6 stages, -bases6); then compute-sanitizer on the
# resident kernels. Bundles: .device/s25d (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s25d > $OUT/ab.txt 2>&1
rc=$?; echo "ab rc=$rc"
grep "^==" $OUT/ab.txt | grep -v "status=PASS"
for bt in C5-b32-rw:memcheck C5-b32-rw:synccheck C1-b32-rw:memcheck C1-b32-rw:synccheck C5-b32-rw:racecheck C1-b32-rw:racecheck; do
  b=.device/s25d/${bt%%:*}; t=${bt##*:}; n=$(basename $b)
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun $b --bench 1 > $OUT/san-$n-$t.txt 2>&1
  echo "$n $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$n-$t.txt | tail -n 1)"
done
tail -n 6 $OUT/ab.txt
