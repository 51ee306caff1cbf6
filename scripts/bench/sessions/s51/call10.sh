#!/bin/bash
# Fifty-first session, call 10 (.device/s51-j, mkmcdown.py): the M = 300
# down GEMMs of S2, S4, S7, G8 on 64 weight rows against 80/104 tokens, in
# clusters of 1, 2 or 4 along n (the token tile multicast), against the
# searched bundle (-base), both orders; memcheck on one.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-j
mkdir -p $OUT
memcheck $D/S7-m300-d64x104c4 2>&1 | tee $OUT/memcheck.txt
for d in $D/*-d64*; do n=$(basename $d); w=${n%-d64*}; ab_line $D base ${n##*-} $w 0; done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
