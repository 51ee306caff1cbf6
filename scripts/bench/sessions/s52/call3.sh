#!/bin/bash
# Fifty-second session, call 3 (.device/s52-c): chains whose gated GEMM the
# search swaps once it offers the 128-row tile count's token width
# (S6 at M = 800 on 120 tokens) or swapped gated pairs at any padding
# (S3 at M = 512 and 1024, S1-S6 and S8 at 1500), -new, against the
# staged-store compiler's plans, -base; both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s52-c
mkdir -p $OUT
memcheck $D/S6-m800-new | tee $OUT/memcheck.txt
for w in S6-m800 S3-m512 S3-m1024 S1-m1500 S2-m1500 S3-m1500 S4-m1500 S5-m1500 S6-m1500 S8-m1500; do
  ab_both $D base new $w 0
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
