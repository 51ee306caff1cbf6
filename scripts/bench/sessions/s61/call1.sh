#!/bin/bash
# Sixty-first session, call 1 (.device/s61-a/ab.tar.xz): a swapped plain
# product split over two along k on 128 weight rows may take as many
# token tiles as 128-row tiles cover its bin (80, 96, 112 tokens) rather
# than 128. The dynamic-M bundles (target=h200) of every workload whose
# plans move, W-bins (HEAD b74fc20) and W-split (the experiment), A/B at
# an M inside each bin that changed, both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
tar xJf .device/s61-a/ab.tar.xz -C /tmp || exit 1
for p in "G5 150" "G5 180" "G5 200" "G5 220" "GEMM-4096 150" "GEMM-4096 180" \
  "GEMM-4096 210" "S3 150" "S3 180" "S3 210" "S7 300" "G8 420" "S2 420" \
  "S4 420" "S5 420"; do ab_both /tmp/ab bins split $p; done > $OUT/ab.txt
ab_table $OUT/ab.txt
