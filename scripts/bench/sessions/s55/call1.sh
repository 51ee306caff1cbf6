#!/bin/bash
# Fifty-fifth session, call 1 (.device/s54-e): the dynamic-M tables of
# G1-G10 and S1-S8 as landed at c38900d (a dynamic M's bins weigh swapped
# plans at any M) at M = 330, 600 and 680 against PyTorch's CUDA-graph
# chains, merged and split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_graph_bench .device/s54-e 330,600,680 540
