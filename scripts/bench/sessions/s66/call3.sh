#!/bin/bash
# Sixty-sixth session, call 3: (1) scripts/gpu/launch_probe.cu, prebuilt
# cuLaunchKernelEx cluster launches against cuGraphLaunch of the same
# launches, 1 and 2 kernels per call, host time and per-call figures;
# (2) the cost-model fidelity sweep over the chains of the roofline target
# that no sweep covered yet (.device/s66-fid: `compile-workloads.py
# .device/s66-fid --weight-layout nk --search-options target=h200 --only
# G8,S1,S2,S4,S5,S6,S7,S8 --ranks 6 --spread 4`), every plan checked and
# timed as CUDA-graph replays (ab.sh GRAPH=1), the log in $OUT for
# fidelity.py.
set -u
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( cd scripts/gpu && nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  launch_probe.cu -o /tmp/launch_probe -lcuda && /tmp/launch_probe ) > $OUT/launch-probe.md 2>&1
GRAPH=1 BENCH=20 RUN_TIMEOUT=60 timeout 420 scripts/gpu/ab.sh /tmp/b .device/s66-fid > $OUT/ab.log 2>&1
echo "ab rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log
cat $OUT/launch-probe.md
