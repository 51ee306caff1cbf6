#!/bin/bash
# Sixty-fifth session, call 1: the cost-model fidelity sweep over the
# workloads the G (1.6x) and C batch-32 (2x) graph targets still miss and
# the issue's six do not cover (.device/s65-fid: `compile-workloads.py
# .device/s65-fid --weight-layout nk --search-options target=h200 --only
# G1,G2,G6,G7,G9,G10,C3-b32,C4-b32,C6-b32,C7-b32,C8-b32 --ranks 6
# --spread 4`), every plan checked and timed as CUDA-graph replays (ab.sh
# GRAPH=1), the log in $OUT for fidelity.py.
set -u
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GRAPH=1 BENCH=20 RUN_TIMEOUT=60 scripts/gpu/ab.sh /tmp/b .device/s65-fid > $OUT/ab.log 2>&1
echo "ab rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log
sed -n '/^| workload/,$p' $OUT/ab.log
