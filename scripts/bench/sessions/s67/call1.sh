#!/bin/bash
# Sixty-seventh session, call 1. The runtime's gtest (DeviceTest.
# ReportsStreamCapture had not run on a GPU), then the roofline chains'
# up GEMM on other shapes: .device/s67-up (half_variants.py .device/s67-up
# 0 8 G8; ... 0 6 G5) holds per chain W-base (the search's sequence) and
# W-v0... (the up GEMM on the search's next-priced shapes, the down GEMM
# as chosen), each checked and timed against base as CUDA-graph replays
# in both orders (ab_both); then ncu of G8's kernels in base and every
# variant: duration, DRAM bytes, L2 bytes and throughput, SM and tensor
# pipe use.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
timeout 120 /tmp/b/test/Unit/Runtime/FFRuntimeTests > $OUT/gtest.txt 2>&1
echo "gtest rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.txt | tr '\n' ' ') $(grep -E 'ReportsStreamCapture' $OUT/gtest.txt | tail -1)"
. scripts/bench/session-lib.sh
D=.device/s67-up
for d in $D/G8-v* $D/G5-v*; do
  n=$(basename $d); w=${n%-*}; v=${n##*-}
  ab_both $D base $v $w 0
done > $OUT/ab.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for d in $D/G8-*; do
  timeout 120 ncu --clock-control none --metrics $M -k regex:ff_ -c 2 --csv \
    $ffrun $d > /tmp/ncu.csv 2>/dev/null
  ncu_rows /tmp/ncu.csv $(basename $d)
done > $OUT/ncu.txt
cat $OUT/ncu.txt | sed -e 's/gpu__time_duration.sum/ns/; s/dram__bytes_read.sum/dramR/; s/dram__bytes_write.sum/dramW/; s/lts__throughput[^=]*/l2pct/; s/sm__throughput[^=]*/smpct/; s/sm__pipe_tensor[^=]*/tc/; s/dram__throughput[^=]*/drampct/'
ab_table $OUT/ab.txt | tee $OUT/ab.md
