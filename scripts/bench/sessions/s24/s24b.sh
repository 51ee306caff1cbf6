#!/bin/bash
# Twenty-fourth session: persistent solo FFN kernels (persistent-solo=true,
# bundles -pers) against the one-tile-per-CTA defaults (-base), then
# compute-sanitizer on persistent kernels. Bundles: .device/s24b.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s24b > $OUT/ab.txt 2>&1
rc=$?; echo "ab rc=$rc"
[ $rc = 0 ] || { grep "^==" $OUT/ab.txt | grep -v "status=PASS"; tail -n 10 $OUT/ab.txt; exit 1; }
for bt in C6-b32-pers:memcheck C6-b32-pers:synccheck C5-b1-pers:memcheck C5-b1-pers:racecheck C6-b32-pers:racecheck; do
  b=${bt%%:*}; t=${bt##*:}
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun .device/s24b/$b --bench 1 > $OUT/san-$b-$t.txt 2>&1
  echo "$b $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$b-$t.txt | tail -n 1)"
done
grep "^==" $OUT/ab.txt | grep -v "status=PASS" | head
tail -n 10 $OUT/ab.txt
