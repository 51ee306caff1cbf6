#!/bin/bash
# Thirty-first session: where C8-b32's 3x3 GEMM kernel (.device/s31c,
# 64 x 128 image-row tiles) stalls: ncu's warp-state and source-counter
# sections (the top stalled SASS lines), clock and cache control off.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
ncu --clock-control none --cache-control none --kernel-name regex:c8_b32_0_s0 --launch-skip 10 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --section SchedulerStats --section Occupancy \
  $ffrun .device/s31c/C8-b32 --bench 20 > $OUT/ncu.txt 2>&1
echo "ncu rc=$?"
grep -vE "^==PROF==|^$" $OUT/ncu.txt | sed -n '/c8_b32_0_s0/,$p' | cut -c1-160 | head -90
