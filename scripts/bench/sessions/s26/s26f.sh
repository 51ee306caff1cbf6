#!/bin/bash
# Twenty-sixth session: the CTA-tile conv halo ring (every 3x3 conv plan
# without split K: C5-b1, C6-b1, C6-b32, C7-b32, C8-b32) against the
# defaults of s26d (base); halokn = k-major weights. --check first, then
# two A/B passes and compute-sanitizer. Bundles: .device/s26f.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26f/C6-b32-base --bench 300 > /dev/null 2>&1
for b in .device/s26f/*-halo*; do
  timeout 60 $ffrun $b --check --bench 3 | grep RESULT | sed 's/inputs=.*status/status/'
done
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s26f > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; tail -n 8 $OUT/ab$pass.txt
done
for b in C6-b32-halo C7-b32-halo C6-b1-halo; do
  for tool in memcheck synccheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26f/$b --bench 1 > $OUT/san-$b-$tool.txt 2>&1
    echo "$b $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$b-$tool.txt | tail -1)"
  done
done
