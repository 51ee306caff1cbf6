#!/bin/bash
# Twenty-fourth session, final check of the new defaults: C1-b32, C5-b32 and
# C6-b32 (persistent solo kernels) against the twenty-third session's
# (-s23), both weight layouts checked; compute-sanitizer on persistent
# kernels (.device/s24f: the lit test's 256-tile FFN, two tiles per CTA);
# then set C side by side. Bundles: .device/s24d (the 16 C defaults),
# .device/s24e, .device/s24f (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s24e > $OUT/ab.txt 2>&1
rc=$?; echo "ab rc=$rc"
[ $rc = 0 ] || { grep "^==" $OUT/ab.txt | grep -v "status=PASS"; tail -n 8 $OUT/ab.txt; exit 1; }
for bt in .device/s24f:racecheck .device/s24f:memcheck .device/s24f:synccheck .device/s24e/C5-b32-nk:memcheck .device/s24e/C1-b32-nk:synccheck; do
  b=${bt%%:*}; t=${bt##*:}; n=$(basename $b)
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun $b --bench 1 > $OUT/san-$n-$t.txt 2>&1
  echo "$n $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$n-$t.txt | tail -n 1)"
done
BUILD=/tmp/b SETS="c" scripts/gpu/bench-all.sh .device/s24d $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc=$?"
tail -n 8 $OUT/ab.txt
