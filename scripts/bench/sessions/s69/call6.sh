#!/bin/bash
# Sixty-ninth session, call 6: compute-sanitizer racecheck of G5 at M = 16
# (.device/s69-race/G5-m16: compile-workloads.py --only G5-m16
# --weight-layout nk --search-options target=h200, this session's ff-opt;
# its kernels are those of .device/s68-std/G5-m16), alone on the GPU for up
# to 560 s (the sixty-eighth session ran four such bundles at once for 330
# s without an answer). PASS means exit 0 and no hazards.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
compute-sanitizer --version | tail -1
w=G5-m16; start=$(date +%s)
timeout 560 compute-sanitizer --tool racecheck --error-exitcode 9 \
  $ffrun .device/s69-race/$w --m 16 > $OUT/racecheck-$w.txt 2>&1
rc=$?; t=$(( $(date +%s) - start ))
if [ $rc = 124 ]; then v=TIMEOUT; elif [ $rc = 0 ] && grep -q "RACECHECK SUMMARY: 0 hazards" $OUT/racecheck-$w.txt; then v=PASS; else v="FAIL rc=$rc"; fi
echo "$w racecheck $v ${t}s: $(grep -h 'RACECHECK SUMMARY' $OUT/racecheck-$w.txt)"
