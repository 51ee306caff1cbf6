#!/bin/bash
# Fifty-eighth session, call 6 (.device/s58-e: plan-diff.py's sides of S6
# and S8, `--sets dyn`, HEAD f5f5fbf's ff-opt against a test build pricing
# a gated GEMM's 64-row tile (one consumer warpgroup) 1.12x, as
# KernelFit::gemmGatedLoneWarpgroupFactor): the two bins it moves (S6
# 385-448 onto 128 x 128, S8 257-320 onto 128 x 72), both orders
# (ab_both: ff-run --check, then medians of 20 graph replays).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s58-e
mkdir -p $OUT
for wm in "S6 400" "S6 440" "S6 448" "S8 270" "S8 300" "S8 320"; do
  ab_both $D base new $wm
done | tee $OUT/ab.txt
ab_table $OUT/ab.txt
