#!/bin/bash
# Fifty-second session, call 4 (.device/s52-d): the exact-M sweep (G1-G10,
# S1-S8 at M = 300, 800, 1500) and S3 at M = 512 and 1024, compiled with
# the staged stores and the swapped gated rules, against PyTorch's chains
# in CUDA graphs (merged and split gate/up), one bench.py process;
# graph_table's rows last.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
bench_graphs .device/s52-d 'dyn-,S3-m512$,S3-m1024$' 430 > /dev/null
graph_table $OUT/results.csv
