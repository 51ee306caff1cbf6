#!/bin/bash
# Sixty-ninth session, call 5: the dynamic-M bundles whose kernels this
# session's two changes move (plan-diff.py of ff-opt before and after,
# --sets sweep,dyn with target=h200: .device/s69-dyn/W-old and W-new, the
# dyn set's G3, G4, G7, G9 and G10, and the sweep's G10 at M = 300, whose
# down GEMM's ring is cut from 4 stages to its 3 k steps), checked and
# timed as CUDA-graph replays in both orders (ab_both) at M = 64 (G7's
# 1-64 bin: 3 stages now), 100 and 128 (the 65-128 bins).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s69-dyn
{ for w in G3 G4 G9 G10; do for m in 100 128; do ab_both $D old new $w $m; done; done
  for m in 64 100; do ab_both $D old new G7 $m; done
  ab_both $D old new G10m300 0; } > $OUT/ab.txt
ab_m_table $OUT/ab.txt | tee $OUT/ab.md
