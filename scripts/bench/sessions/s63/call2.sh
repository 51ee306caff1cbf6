#!/bin/bash
# Sixty-third session, call 2: the standard rows (sets C, G and S at their
# own M: eager, the CUDA-graph chain (cuDNN's for C), ours per call and in
# a graph, checked in the same run) of HEAD's plans for `target=h200`
# (.device/s63-std: `compile-workloads.py .device/s63-std --weight-layout
# nk --search-options target=h200 --single-gemms`), and the issue's targets
# computed from them.
set -u
export BUNDLES=.device/s63-std
bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv 2>&1 | tail -32
