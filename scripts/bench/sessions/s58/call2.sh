#!/bin/bash
# Fifty-eighth session, call 2 (.device/s58-b: S6's down GEMM at M = 440 on
# swapped 88-token x 64-row tiles, 8 stages, hand-set clusters of 1, 2 and
# 4 along n, the token tile multicast; a test build lowering clusters of 4):
# timed side by side (ab.sh, CUDA graphs), then ncu sections of ours (c1,
# c4) and of cuBLAS's kernel for the same GEMM.
set -u
mkdir -p $OUT
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 timeout 120 scripts/gpu/ab.sh /tmp/b .device/s58-b > $OUT/ab.log 2>&1
echo "ab rc=$?"
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis"
for v in c1 c4; do
  timeout 120 ncu --clock-control none $S -k regex:ff_gemm --launch-skip 3 -c 1 \
    $ffrun .device/s58-b/S6DN440s88x64-$v --bench 1 > $OUT/ncu-$v.txt 2>&1
  echo "ncu $v rc=$?"
done
timeout 120 ncu --clock-control none $S -k regex:nvjet --launch-skip 3 -c 1 \
  python3 scripts/bench/sessions/s58/cublas_gemms.py S6DN:440:1536:8960 > $OUT/ncu-cublas.txt 2>&1
echo "ncu cublas rc=$?"
for f in $OUT/ncu-*.txt; do
  echo "== $f"
  grep -E "Duration|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Executed Ipc Active|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Registers Per|Block Size|Grid Size|Cluster Size|Shared Memory Configuration|Dynamic Shared|L1/TEX Hit|L2 Hit" $f | head -24
done
sed -n '/^| workload/,$p' $OUT/ab.log
