#!/bin/bash
# Thirty-third session: the variants of s33g-variants.sh (.device/s33g),
# checked and timed by time-variants.sh (the CUDA-graph chain beside the
# defaults), then ncu's durations and DRAM throughput of the default
# bundles' kernels.
scripts/bench/sessions/s33/time-variants.sh .device/s33g /tmp/none S8 graph
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size
for w in S1 G5; do
  echo "== ncu $w-def"
  ncu --clock-control none --cache-control none --launch-skip 10 --launch-count 2 --metrics $m /tmp/b/bin/ff-run .device/s33g/$w-def --bench 5 2>&1 | grep -E "^  [a-z_0-9]+.*\(|^    [a-z]" | awk '{print $1, $(NF)}'
done
