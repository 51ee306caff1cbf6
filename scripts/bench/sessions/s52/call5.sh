#!/bin/bash
# Fifty-second session, call 5 (.device/s52-e): the seven exact-M chains
# with a swapped split-K GEMM, its reduced slice stored 8 weight rows per
# thread along the slice's rows (-rows8: conflict-free shared loads,
# 16-byte stores) against two rows per thread down its columns (-base,
# e4ca06b), both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s52-e
mkdir -p $OUT
for w in G5-m300-rows8 S2-m800-rows8; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for w in G5-m300 G8-m800 S2-m800 S3-m300 S4-m800 S5-m800 S6-m800; do
  ab_both $D base rows8 $w 0
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
