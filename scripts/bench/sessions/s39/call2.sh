#!/bin/bash
# Thirty-ninth session, call 2: why call 1's gated split-K plans lost.
# Nsight Compute (clock control off, one launch each after ff-run's
# warm-up-free first run) on S3's gated GEMM at M = 128 and 256, unsplit
# against split over 2: duration, DRAM and L2 throughput, and the
# consumers' stall reasons.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in S3GG128-128x128c1 S3GG128-128x128c2 S3GG256-128x128c1 S3GG256-128x128c2 S3GG256-128x64c1; do
  timeout 120 ncu --clock-control none --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section LaunchStats --section Occupancy \
    $ffrun .device/s39-gated/$b > $OUT/$b.ncu 2>&1
  echo "== $b rc=$?"
  grep -E "^\s+(Duration|DRAM Throughput|L2 Cache Throughput|Memory Throughput|Compute \(SM\) Throughput|Max Bandwidth|Stall [A-Za-z ]+|Warp Cycles Per Issued|Achieved Occupancy|Cluster Size|Grid Size|Registers Per)" $OUT/$b.ncu | head -20
done
