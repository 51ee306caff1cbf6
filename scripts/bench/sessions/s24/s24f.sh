#!/bin/bash
# Twenty-fourth session: racecheck of a persistent streamed-n kernel small
# enough for the tool (an FFN of M = 8960, N = 256, K = L = 64, hand-set
# 64x128x64x64 streamed plan at one CTA per SM: 140 m tiles on 132 CTAs).
# Bundle: .device/s24i (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s24i/SFFN-pers --check --bench 20 | tail -n 1
for t in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $t --error-exitcode 9 $ffrun .device/s24i/SFFN-pers --bench 1 > $OUT/san-$t.txt 2>&1
  echo "SFFN-pers $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$t.txt | tail -n 1)"
done
