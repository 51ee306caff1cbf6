#!/bin/bash
# Fifty-eighth session, call 7 (.device/s58-f/S6: plan-diff.py's new side of
# S6, `--sets dyn`, with the landed gemmGatedLoneWaveFactor): compute-
# sanitizer memcheck of the merged 385-512 bin at M = 400, then S6 at M =
# 400, 440 and 480 against PyTorch's CUDA-graph chains, merged and split
# gate/up, ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
memcheck .device/s58-f/S6 400 | tee $OUT/memcheck.txt
dyn_graph_bench .device/s58-f 400,440,480 300
