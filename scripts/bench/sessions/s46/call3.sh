#!/bin/bash
# Forty-sixth session, call 3: the benchmark's standard rows with HEAD's
# defaults (.device/s46-std: compile-workloads.py DIR --weight-layout nk
# --only C1-b1,...,C8-b32,G1,...,G10,S1,...,S8): set C (eager, cuDNN's
# chain in a CUDA graph, ours per call and in a graph) and sets G and S
# (eager, the CUDA-graph chain, ours per call and in a graph) through
# ../s33/s33e.sh, then the targets (targets.py).
set -u
export BUNDLES=.device/s46-std
bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv 2>&1 | tail -30
