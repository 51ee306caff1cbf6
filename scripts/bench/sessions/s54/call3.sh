#!/bin/bash
# Fifty-fourth session, call 3 (.device/s54-c): the dynamic-M tables of
# G1-G10 and S1-S8 as landed (a gated FFN's 64-row bins to 1024, no split K
# of a single GEMM past one m tile where K < N) at
# M = 600, 800 and 930 against PyTorch's CUDA-graph chains, merged and
# split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_graph_bench .device/s54-c 600,800,930 520
