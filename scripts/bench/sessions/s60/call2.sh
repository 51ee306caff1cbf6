#!/bin/bash
# Sixtieth session, call 2 (.device/s60-b): 32-row M bins 129-160,
# 161-192, 193-224, 225-256 in place of one 129-256 bin. ab.tar.xz holds
# the dynamic-M bundles (target=h200) of every G/S workload and
# GEMM-8192 whose plans for 129-256 change, W-base (HEAD 516dd4d) and
# W-bins (the new bins), A/B at an M inside each bin that changed, both
# orders, checked; tables.tar.xz the 18 G/S tables with the new bins
# against PyTorch's CUDA-graph chains at M = 150, 180, 210.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p /tmp/ab /tmp/t && tar xJf .device/s60-b/ab.tar.xz -C /tmp && tar xJf .device/s60-b/tables.tar.xz -C /tmp/t || exit 1
for w in G5 GEMM-8192 S1 S4; do for m in 150 180 210; do ab_both /tmp/ab base bins $w $m; done; done > $OUT/ab.txt
for w in G6 G8 G9 S2 S5 S7 S8; do for m in 150 180; do ab_both /tmp/ab base bins $w $m; done; done >> $OUT/ab.txt
dyn_graph_bench /tmp/t 150,180,210 300
ab_table $OUT/ab.txt
