#!/bin/bash
# Fifty-eighth session, call 3 (.device/s58-c: kinterleave.py DIR 12 2 with
# the k-interleave test build; where the partial's buffer did not fit, the
# -ki bundle was lowered with one stage fewer): 64-row GEMM tiles with one
# consumer warpgroup (-base) against two k-interleaved ones (-ki),
# --check'ed and timed side by side in CUDA graphs (ab.sh), then
# compute-sanitizer memcheck and racecheck of three -ki bundles.
set -u
mkdir -p $OUT
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 timeout 300 scripts/gpu/ab.sh /tmp/b .device/s58-c > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for b in S6DN440s88x64c1-ki S6GG440p64x128c1-ki G4DN440p64x64c1-ki; do
  for t in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $ffrun .device/s58-c/$b --bench 1 > $OUT/san-$b-$t.txt 2>&1
    echo "$b $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$b-$t.txt | tail -1)"
  done
done
sed -n '/^| workload/,$p' $OUT/ab.log
