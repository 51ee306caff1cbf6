#!/bin/bash
# Sixty-eighth session, call 5: compute-sanitizer racecheck of the four
# bundles whose racecheck never finished (G5 and S3 at M = 16 and 64,
# .device/s68-std), all four at once with 330 s each (the device time
# left); each line says PASS (exit 0 and no hazards), FAIL or TIMEOUT.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
compute-sanitizer --version | tail -1
for w in G5-m16 G5-m64 S3-m16 S3-m64; do
  m=${w#*-m}
  ( start=$(date +%s)
    timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 \
      $ffrun .device/s68-std/$w --m $m > $OUT/racecheck-$w.txt 2>&1
    rc=$?; t=$(( $(date +%s) - start ))
    if [ $rc = 124 ]; then v=TIMEOUT; elif [ $rc = 0 ] && grep -q "RACECHECK SUMMARY: 0 hazards" $OUT/racecheck-$w.txt; then v=PASS; else v="FAIL rc=$rc"; fi
    echo "$w racecheck $v ${t}s: $(grep -h 'RACECHECK SUMMARY' $OUT/racecheck-$w.txt)" ) &
done
wait
