#!/bin/bash
# Twenty-sixth session: conv halo (--lower-to-nvvm="warpgroup-tiles=true
# conv-halo=true") on C5-b32: halo = taps as windows of one halo per image
# row; halob = the same with the descriptors' base-offset field set;
# halokn = k-major weights. Against the resident-weights default (base) and
# free-running warpgroup tiles (wg). Bundles: .device/s26c.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26c/C5-b32-base --bench 300 > /dev/null 2>&1
for v in halo halob halokn; do
  $ffrun .device/s26c/C5-b32-$v --check --bench 3 | grep RESULT | sed 's/inputs=.*status/status/'
done
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s26c > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; tail -n 4 $OUT/ab$pass.txt
done
for tool in memcheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26c/C5-b32-halo --bench 1 > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt | tail -1)"
done
