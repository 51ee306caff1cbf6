#!/bin/bash
# Twenty-sixth session: C5-b32's halo kernel at each l chunk (l256 is the
# default) and C1-b32 with and without warpgroup tiles, then an ncu
# profile of the C5-b32 halo kernel. Bundles: .device/s26i.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26i/C5-b32-l256 --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26i > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS"
  tail -n 5 $OUT/ab$pass.txt
done
timeout 200 ncu --clock-control none --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy $ffrun .device/s26i/C5-b32-l256 --bench 3 > $OUT/ncu.txt 2>&1
echo "ncu rc=$?"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Memory Throughput|Issued Ipc|Warp Cycles Per Issued|Active Warps Per Scheduler|Stall|Achieved Occupancy" $OUT/ncu.txt | head -30
