#!/bin/bash
# Fifty-ninth session, call 7 (.device/s59-d-pack/tables.tar.xz: G1-G10 and
# S1-S8 as dynamic-M tables for target=h200, `compile-workloads.py DIR
# --weight-layout nk --dynamic-m --search-options target=h200`, HEAD
# 838d716): at M = 200, 440 and 600 against PyTorch's CUDA-graph chains,
# merged and split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p /tmp/t && tar xJf .device/s59-d-pack/tables.tar.xz -C /tmp/t || exit 1
dyn_graph_bench /tmp/t 200,440,600 540
