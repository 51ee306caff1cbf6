#!/bin/bash
# Twenty-sixth session: E stored by TMA (--lower-to-nvvm=tma-store-e=true)
# against the defaults (base), --check first (ragged M: FFNr), two A/B
# passes, compute-sanitizer on the 2-wave FFN. Bundles: .device/s26k.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26k/C5-b32-base --bench 300 > /dev/null 2>&1
for b in .device/s26k/*-tma*; do
  timeout 60 $ffrun $b --check --bench 3 | grep RESULT | sed 's/inputs=.*status/status/'
done
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s26k > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; tail -n 6 $OUT/ab$pass.txt
done
for tool in memcheck synccheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26k/FFN-tma --bench 1 > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt | tail -1)"
done
