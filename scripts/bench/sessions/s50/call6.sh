#!/bin/bash
# Fiftieth session, call 6 (.device/s50-e, mksplit.py): the down GEMM of
# G5, G8, S1, S3 and S7 at M = 300 as a swapped split K (160-row token
# tiles, 128 weight rows, clusters of 2 or 4 along k reduce-scattering over
# DSM; the epilogue stores C^T's slice down its rows) against the searched
# bundle (-base), both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-e
mkdir -p $OUT
for w in G5-m300 G8-m300 S1-m300 S3-m300 S7-m300; do
  ab_line $D base k2 $w 0; ab_line $D base k4 $w 0; done 2>&1 | tee $OUT/ab.txt
for w in G5-m300-k2 S7-m300-k4; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
