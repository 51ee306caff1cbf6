#!/bin/bash
# Sixty-fifth session, call 2: the entry cluster barrier's wait deferred to
# each thread's next cluster arrive (defer_entry.py; `-defer`), and with
# every tensor map prefetched at entry as well (`-pf`), against the
# standard bundles (`-base`, .device/s65-std) in CUDA graphs, every bundle
# checked: .device/s65-ab/W-{base,defer,pf}. Two passes (the second over
# the small chains only), variants interleaved per workload.
set -u
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ONLY='^(G[0-9]+|S[0-9]|C[0-9]-b1|GEMM-4096-m64)$' GRAPH=1 BENCH=30 RUN_TIMEOUT=60 \
  scripts/gpu/ab.sh /tmp/b .device/s65-ab > $OUT/ab1.log 2>&1
echo "ab1 rc=$?"; grep -c "RESULT" $OUT/ab1.log; grep -ciE "FAIL" $OUT/ab1.log
ONLY='^(G(1|2|4|6|7|9|10)|C[0-9]-b1|S8)$' GRAPH=1 BENCH=30 RUN_TIMEOUT=60 \
  scripts/gpu/ab.sh /tmp/b .device/s65-ab > $OUT/ab2.log 2>&1
echo "ab2 rc=$?"; grep -c "RESULT" $OUT/ab2.log; grep -ciE "FAIL" $OUT/ab2.log
sed -n '/^| workload/,$p' $OUT/ab1.log
sed -n '/^| workload/,$p' $OUT/ab2.log
