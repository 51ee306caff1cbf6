#!/bin/bash
# Thirty-second session: what binds C4-b32 (7x7 x 32 images, 1x1 512 ->
# 2048 -> 512, a kernel sequence of two plain GEMMs at M = 1568; 1.17x
# cuDNN's chain in graphs): ncu's throughput metrics of our two kernels
# (.device/s32c) and of cuDNN's chain's kernels, clock and cache control
# off, one launch each after warm-up.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_bytes.sum.per_second,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__warps_active.avg.per_cycle_active,launch__grid_size,launch__cluster_dim_x
echo "== ours C4-b32 (s0, s1)"
ncu --clock-control none --cache-control none --kernel-name regex:c4_b32 --launch-skip 20 --launch-count 2 \
  --metrics $metrics /tmp/b/bin/ff-run .device/s32c/C4-b32 --bench 20 2>&1 | grep -E "^  [a-z_0-9]+.*\(|^    [a-z]" | awk '{print $1, $(NF)}'
echo "== cuDNN C4-b32 chain (conv, relu, conv)"
ncu --clock-control none --cache-control none --launch-skip 60 --launch-count 3 \
  --metrics $metrics python3 scripts/bench/sessions/s30/convchain.py 32 512 7 7 2048 512 1 1 2>&1 | grep -E "^  [a-zA-Z_0-9<>:]+.*\(|^    [a-z]" | awk '{print $1, $(NF)}'
