#!/bin/bash
# Fifty-seventh session, call 3 (.device/s57-c: the G1-G10 and S1-S8 tables
# as landed, bins split at a swapped width's token-tile edge) at M = 440,
# 560 and 930 (parts the split moves) against PyTorch's CUDA-graph chains,
# merged and split gate/up; ours per call (checked) and in a graph. First
# --check at both ends of the parts the recursive split made (S3, S5).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
for w in S3 S5; do for m in 553 560 561 576; do
  echo "edge $w $m $(c .device/s57-c/$w $m)"; done; done | tee $OUT/edges.txt
dyn_graph_bench .device/s57-c 440,560,930 520
