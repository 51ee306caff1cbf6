#!/bin/bash
# Fifty-fifth session, call 5 (.device/s55-e, the tables of 4d4c19c): the
# G1-G10 and S1-S8 dynamic-M tables at M = 330, 600 and 680 (call 1's M)
# and 800, 930 against PyTorch's CUDA-graph chains, merged and split
# gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_graph_bench .device/s55-e 330,600,680,800,930 560
