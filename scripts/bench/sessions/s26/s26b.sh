#!/bin/bash
# Twenty-sixth session: warpgroup tiles taking turns at the tensor cores
# (late: the turn passes after the tile's last GEMM; early: after GEMM0),
# against the free-running warpgroup tiles (wg) and the resident-weights
# defaults (base) of s26a. Bundles: .device/s26a, .device/s26b.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26a/C5-b32-base --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26a .device/s26b > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS"
  tail -n 7 $OUT/ab$pass.txt
done
for tool in memcheck synccheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26b/FFN-late --bench 1 > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt | tail -1)"
done
