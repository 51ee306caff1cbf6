#!/bin/bash
# Fifty-ninth session, call 8 (.device/s59-e, tailsplit.py DIR): what a
# tail wave costs S6's gated GEMM at M = 440 (128 x 128 tiles: 280 tiles,
# 2.12 waves of 132). FULL128 is the table's plan; A* the first 264 tiles
# alone (N = 8448: two full waves, unswapped and the search's swapped
# 112 x 128), B* the 16 tail tiles' columns alone (N = 512) on the
# search's narrow tiles. Each --check'ed, then timed twice in CUDA graphs.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s59-e
mkdir -p $OUT
for n in FULL128 A128 A112s B64 B128x16 FULL128; do
  echo "$n $(c $D/$n) $(t $D/$n) $(t $D/$n)"
done | tee $OUT/tail.txt
