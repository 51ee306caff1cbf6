#!/bin/bash
# Fifty-ninth session, call 11 (.device/s59-h): the one static plan the
# wide-gated rule moves (plan-diff.py --sets sweep, target=h200 both
# sides): S8 at M = 1500, whose gated GEMM the model prices level on
# swapped 144 tokens (11 x 24) and on 128 x 144 (12 x 22). The chain
# (S8m1500-base/-new) and the gated GEMM alone (S8GG1500-s144/-p144,
# gpcraster-style sources through halves.write_source), both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s59-h
mkdir -p $OUT
{ ab_both $D base new S8m1500 0; ab_both $D s144 p144 S8GG1500 0; } > $OUT/ab.txt
ab_table $OUT/ab.txt
