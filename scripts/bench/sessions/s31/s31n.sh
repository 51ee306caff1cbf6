#!/bin/bash
# Thirty-first session: C7-b32's 3x3 GEMM kernel (.device/s31c) and the
# 3x3 convolutions of cuDNN's C7-b32 and C6-b32 chains: ncu's time, L2
# bytes and tensor-pipe activity (clock and cache control off), the data
# for a halo-reusing 3x3 GEMM kernel's design (docs/lowering.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
metrics=gpu__time_duration.sum,lts__t_bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__block_size
echo "== ours C7-b32 s0"
ncu --clock-control none --cache-control none --kernel-name regex:c7_b32_0_s0 --launch-skip 10 --launch-count 1 \
  --metrics $metrics $ffrun .device/s31c/C7-b32 --bench 20 2>&1 | grep -E "^    [a-z]" | awk '{print $1, $(NF)}'
for args in "32 256 14 14 256 1024 3 1" "32 128 28 28 128 512 3 1"; do
  echo "== cuDNN $args"
  ncu --clock-control none --cache-control none --kernel-name regex:implicit_gemm --launch-skip 20 --launch-count 1 \
    --metrics $metrics python3 scripts/bench/sessions/s30/convchain.py $args 2>&1 | grep -E "^    [a-z]|^  [a-z_].*\(" | awk '{print $1, $(NF)}'
done
