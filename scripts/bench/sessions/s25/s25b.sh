#!/bin/bash
# Twenty-fifth session: racecheck of a persistent streamed FFN (the
# twenty-fourth session's s24g.sh, which ran out of device time), with the
# SASS stall sampling of C5-b32's persistent solo default while the
# sanitizer is not running. Bundles: .device/s25b, .device/s25c (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
timeout 90 ncu --clock-control none --launch-skip 3 --launch-count 1 \
  --section WarpStateStats --section SourceCounters \
  $ffrun .device/s25b/C5-b32-s25 --bench 3 > $OUT/ncu-src-C5-b32.txt 2>&1
echo "ncu rc=$?"
sed -n '/Section: Source Counters/,$p' $OUT/ncu-src-C5-b32.txt | grep -vE "^\s*$" | head -60
timeout 480 compute-sanitizer --tool racecheck --error-exitcode 9 $ffrun .device/s25c/SFFN-pers --bench 1 > $OUT/san-racecheck.txt 2>&1
echo "SFFN-pers racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/san-racecheck.txt | tail -n 1)"
tail -n 5 $OUT/san-racecheck.txt
