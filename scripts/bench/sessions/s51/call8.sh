#!/bin/bash
# Fifty-first session, call 8 (.device/s51-h): the four exact-M chains
# whose plans change when the search offers swapped 64-row weight tiles
# against narrow fitted token widths (80 at M = 300 and 800, one wave:
# -narrow, compile-workloads.py --dynamic-sweep with that search) against
# the landed bundles (-base: call 4's exact/), both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-h
mkdir -p $OUT
for w in G7-m800-narrow G9-m300-narrow; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for w in G4-m800 G7-m800 G9-m300 S2-m300; do ab_line $D base narrow $w 0; ab_line $D base narrow $w 0; done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | base us | variant us | base us | variant us | base / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
