#!/bin/bash
# Fifty-third session, call 7 (.device/s53-g): the dynamic-M tables of
# G1-G10 and S1-S8 as landed (72b69de: 64-row bins from 257 to 768) at
# M = 300, 450 and 650 against PyTorch's CUDA-graph chains, merged and
# split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_graph_bench .device/s53-g 300,450,650 450
