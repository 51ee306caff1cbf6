#!/bin/bash
# Twenty-sixth session: warpgroup tiles (--lower-to-nvvm=warpgroup-tiles)
# against the resident-weights defaults, two A/B passes after a warm-up,
# then compute-sanitizer on a 2-wave persistent FFN with warpgroup tiles
# and a ragged M. Bundles: .device/s26a.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26a/C5-b32-base --bench 300 > /dev/null 2>&1
$ffrun .device/s26a/FFNr-wg --check --bench 5 | tail -2
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26a > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS"
  tail -n 6 $OUT/ab$pass.txt
done
for tool in memcheck synccheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26a/FFN-wg --bench 1 > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt | tail -1)"
done
