#!/bin/bash
# Fiftieth session, call 3 (.device/s50-c): the swapped epilogue rewritten
# (lanes q and q ^ 1 trade one value so each stores two adjacent result
# columns; bf16 pairs packed by cvt.rn.bf16x2.f32), which ends ptxas's
# wgmma serialisation (C7514) in persistent swapped kernels of cheap
# epilogues: c1 (landed schedules, new epilogue), r1/r2 (256-row weight
# tiles, one CTA per cluster / pairs along M) against the landed kernels
# (old: .device/s50-b's c1) for the nine exact-M chains the search swaps
# and the lone 300 x 16384 x 4096 GEMM, both orders; memcheck on four.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-c
mkdir -p $OUT
for w in G4-m800 G5-m300 G5-m800 G6-m800 G8-m300 G8-m800 S1-m800 S3-m800 S7-m800 GEMM-m300; do
  for v in c1 r1 r2; do [ -d $D/$w-$v ] && ab_line $D old $v $w 0; done; done 2>&1 | tee $OUT/ab.txt
for w in G5-m800-c1 S3-m800-c1 GEMM-m300-c1 G5-m300-r2; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
echo "| chain | variant | check | old us | variant us | old us | variant us | old / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
