#!/bin/bash
# Thirty-first session: why C8-b32's 3x3 GEMM kernel (the searched 64 x 128
# at 8 stages, image-row tiles; .device/s31c) trails cuDNN's implicit GEMM:
# ncu's throughput, memory and warp-state sections of both, clock control
# and cache control off, one launch each after warm-up.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__warps_active.avg.per_cycle_active,launch__grid_size
echo "== ours C8-b32 s0"
ncu --clock-control none --cache-control none --kernel-name regex:c8_b32_0_s0 --launch-skip 10 --launch-count 1 \
  --metrics $metrics $ffrun .device/s31c/C8-b32 --bench 20 2>&1 | grep -E "^    [a-z]" | awk '{print $1, $(NF)}'
echo "== cuDNN C8-b32 conv 3x3"
ncu --clock-control none --cache-control none --kernel-name regex:implicit_gemm --launch-skip 20 --launch-count 1 \
  --metrics $metrics python3 scripts/bench/sessions/s30/convchain.py 32 512 7 7 512 2048 3 1 2>&1 | grep -E "^    [a-z]|^  [a-z_].*\(" | awk '{print $1, $(NF)}'
