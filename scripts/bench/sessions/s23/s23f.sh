#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s23f > $OUT/ab.txt 2>&1; echo "ab rc=$?"
RUN_TIMEOUT=60 BENCH=40 scripts/gpu/ab.sh /tmp/b .device/s23f > $OUT/ab2.txt 2>&1; echo "ab2 rc=$?"
grep -c "status=PASS" $OUT/ab.txt $OUT/ab2.txt
for b in C6-b32-new C1-b32-new; do
  for t in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun .device/s23f/$b --bench 1 > $OUT/san-$b-$t.txt 2>&1; echo "$b $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$b-$t.txt | tail -1)"
  done
done
tail -8 $OUT/ab.txt; tail -8 $OUT/ab2.txt
