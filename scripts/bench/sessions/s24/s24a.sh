#!/bin/bash
# Twenty-fourth session: the three defaults the occupancy and epilogue fixes
# change (C5-b1, C5-b32, C6-b32), old against new, checked and timed, then
# compute-sanitizer on the new kernels. Bundles: .device/s24a (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s24a > $OUT/ab.txt 2>&1
echo "ab rc=$?"
for b in C5-b32-new C6-b32-new C5-b1-new; do
  for t in memcheck racecheck synccheck; do
    timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $ffrun .device/s24a/$b --bench 1 > $OUT/san-$b-$t.txt 2>&1
    echo "$b $t rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san-$b-$t.txt)"
  done
done
grep "^==" $OUT/ab.txt | grep -v "status=PASS" | head
tail -n 14 $OUT/ab.txt
