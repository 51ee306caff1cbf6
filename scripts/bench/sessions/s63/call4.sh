#!/bin/bash
# Sixty-third session, call 4: (a) the cost-model fidelity sweep
# for `target=h200` (.device/s63-fid: `compile-workloads.py .device/s63-fid
# --weight-layout nk --search-options target=h200 --only
# G3,G4,G5,S3,C3-b1,C4-b1 --ranks 11 --spread 3`), every plan checked and
# timed as CUDA-graph replays (ab.sh GRAPH=1), the log in $OUT for
# fidelity.py; (b) floor_probe.cu: the GPU time per launch of near-empty
# kernels back to back in one graph, by launch shape.
set -u
mkdir -p $OUT
nvcc -arch=sm_90a -O2 -o /tmp/floor scripts/bench/sessions/s63/floor_probe.cu && /tmp/floor > $OUT/floor.md 2>&1
GRAPH=1 BENCH=20 RUN_TIMEOUT=60 scripts/gpu/ab.sh /tmp/b .device/s63-fid > $OUT/ab.log 2>&1
echo "ab rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log; tail -3 $OUT/ab.log
cat $OUT/floor.md
