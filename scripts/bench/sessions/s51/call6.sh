#!/bin/bash
# Fifty-first session, call 6 (.device/s51-f, mkdown.py): down GEMMs on
# cuBLAS's narrow swapped tiles (64 weight rows x 80 or 104 tokens, an
# 8-stage ring, at M = 300; 256 weight rows x 64 tokens at 800) against
# the searched bundle (-base), both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-f
mkdir -p $OUT
for w in S2-m300-d64x80 S7-m800-d256x64; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for d in $D/*-d*; do n=$(basename $d); w=${n%-d*}; ab_line $D base ${n##*-} $w 0; done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
