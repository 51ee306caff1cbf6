#!/bin/bash
# Twenty-seventh session, second call. (1) Rings deeper than 8 stages
# (the schedule attribute and the lowering now take up to 16): hand-set
# GEMM-4096 plans of 64 x 64 tiles at 8-13 stages for M = 16, 64, 128 and
# 64 x 128 / 128 x 64 at 8-9 for M = 256 (.device/s27h, scripts/bench/sessions/s27/deep.py).
# (2) GEMMs with N = 256 under the refitted search with and without the
# wide tiles (.device/s27i, -new / -old). (3) The refitted default's single
# GEMMs against cuBLAS in a graph (.device/s27g).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27g/GEMM-8192 --bench 300 > /dev/null 2>&1
RUN_TIMEOUT=30 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s27h .device/s27i > $OUT/ab.txt 2>&1
echo "ab rc=$?"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/gemm --bundles .device/s27g --reps 100 --only GEMM --baselines graph,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/gemm/*.png
grep -c "rc=0 RESULT.*status=PASS" $OUT/ab.txt
sed -n '/^| workload/,$p' $OUT/ab.txt
cut -d, -f1,7,8,9,12 $OUT/gemm/results.csv
