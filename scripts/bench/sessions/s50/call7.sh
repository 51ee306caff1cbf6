#!/bin/bash
# Fiftieth session, call 7 (.device/s50-f): the landed search (swapped
# split K under the one-wave rule) changes eight exact-M sweep chains
# (compile-workloads.py --dynamic-sweep: <W>-new) against the forty-ninth
# session's compiler (e0c6243: <W>-old), both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-f
mkdir -p $OUT
for w in G5-m300 G6-m300 S3-m300 G8-m800 S2-m800 S4-m800 S5-m800 S6-m800; do
  ab_line $D old new $w 0; done 2>&1 | tee $OUT/ab.txt
for w in S5-m800-new S6-m800-new; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
echo "| chain | check new | old us | new us | old us | new us | old / new |"
echo "|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
