#!/bin/bash
# Thirty-first session: the batch-1 conv sequences per kernel (ncu's
# duration, clock control off, four launches after ten): the searched
# C7-b1 and C8-b1 (.device/s31c) and the hand-set C5-b1 and C6-b1
# sequences of s31g-variants.sh (.device/s31h), against the single-GEMM
# model's estimates of the same plans.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in .device/s31c/C7-b1 .device/s31c/C8-b1 .device/s31h/k4/C6-b1 .device/s31h/k4n128/C6-b1 .device/s31h/k2/C6-b1 .device/s31h/k2/C5-b1 .device/s31h/k1/C5-b1 .device/s31h/def/C6-b1 .device/s31h/def/C5-b1; do
  echo "== $b"
  ncu --clock-control none --launch-skip 10 --launch-count 4 --metrics gpu__time_duration.sum \
    $ffrun $b --bench 20 2>&1 | grep -E "^  c[0-9]_b|gpu__time" | paste - - | awk '{print $1, $(NF)}' | sort | uniq -c
done
