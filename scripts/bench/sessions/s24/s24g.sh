#!/bin/bash
# Twenty-fourth session: s24f.sh's racecheck with a longer limit (the
# 140-CTA persistent streamed FFN of .device/s24i).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
timeout 530 compute-sanitizer --tool racecheck --error-exitcode 9 $ffrun .device/s24i/SFFN-pers --bench 1 > $OUT/san-racecheck.txt 2>&1
echo "SFFN-pers racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/san-racecheck.txt | tail -n 1)"
