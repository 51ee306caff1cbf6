#!/bin/bash
# Thirtieth session: C8-b32's kernel sequence (.device/s30g) against
# cuDNN's chain, per kernel: ncu's duration of each kernel (clock control
# off), for the next session's look at the 3x3 GEMM kernel.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in C8-b32 C7-b32; do
  echo "== ours $w"
  ncu --clock-control none --kernel-name regex:c[78]_b32 --launch-skip 10 --launch-count 4 \
    --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_bytes.sum \
    $ffrun .device/s30g/$w --bench 20 2>&1 | grep -E "c[78]_b32|gpu__time|sm__thr|dram__|lts__" | head -24
done
echo "== cuDNN C8-b32"
ncu --clock-control none --launch-skip 60 --launch-count 6 \
  --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
  python3 scripts/bench/sessions/s30/convchain.py 32 512 7 7 512 2048 3 1 2>&1 | grep -E "^  [a-zA-Z_].*\(|gpu__time|sm__thr" | head -30
