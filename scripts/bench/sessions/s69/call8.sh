#!/bin/bash
# Sixty-ninth session, call 8: the other kernels deepSplitK64 up to M = 256
# moves (plan-diff.py of bfbef40's ff-opt against the rule at 256, sweep
# and dyn sets, target=h200): C7-b1's 3x3 GEMM (M = 196) from 64 x 128
# over 8 on 4 stages to 64 x 64 over 4 on 8, and C3-b1's down GEMM (its
# schedule's stages only: the same PTX). .device/s69-c7/W-old and W-new
# from plan-diff's two sides, checked and timed as CUDA-graph replays in
# both orders (ab_both) at their own M.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s69-c7
{ ab_both $D old new C7-b1 0; ab_both $D old new C3-b1 0; } > $OUT/ab.txt
ab_m_table $OUT/ab.txt | tee $OUT/ab.md
