#!/bin/bash
# Fifty-first session, call 3 (.device/s51-c, mkmc.py): swapped plain GEMMs
# in clusters of 2 along n (two weight tiles sharing each token k tile by
# TMA multicast; not persistent) against the searched bundle (-base), both
# orders; G5's up GEMM at M = 800 also on 160-token tiles alone and in
# pairs; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-c
mkdir -p $OUT
for w in G5-m800-mc S7-m800-mc; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for w in G4-m800 G5-m800 G6-m800 G8-m300 G8-m800 S1-m800 S3-m800 S7-m800; do
  ab_line $D base mc $w 0; done 2>&1 | tee $OUT/ab.txt
for v in w160c1 w160c2; do ab_line $D base $v G5-m800 0; done 2>&1 | tee -a $OUT/ab.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
