#!/bin/bash
# Fifty-first session, call 1 (.device/s51-a, mkgated.py): the S chains'
# gated GEMM swapped (gate's and up's 128-row weight tiles as two A
# operands against one token tile, a gate and an up accumulator per
# consumer warpgroup) against the searched bundle (-base), both orders, at
# M = 800, 300, 1500; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-a
mkdir -p $OUT
for w in S7-m800-g160 S3-m300-g152; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for m in 800 300 1500; do
  for d in $D/S?-m$m-g*; do n=$(basename $d); w=${n%-g*}; ab_line $D base ${n##*-} $w 0; done
done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
