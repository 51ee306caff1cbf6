#!/bin/bash
# Twenty-seventh session, third call: would a two-kernel plan of our own
# beat the fused kernel and cuBLAS on the M = 128 FFN chains? The two
# GEMMs of G4, G5, G6 and G8 as single-GEMM bundles (act(A.B) in bf16, then
# C.D) at the search's ranks 0-2 (.device/s27j, scripts/bench/sessions/s27/twok.py), the
# fused chains (.device/s27k, compile-workloads.py), and the chains in
# cuBLAS / ours in CUDA graphs (bench.py, same run).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27k/G5 --bench 300 > /dev/null 2>&1
RUN_TIMEOUT=30 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s27j > $OUT/ab.txt 2>&1
echo "ab rc=$?"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s27k --reps 100 --only 'G4,G5$,G6,G8' --baselines graph,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/g/*.png
sed -n '/^| workload/,$p' $OUT/ab.txt
cut -d, -f1,7,8,9,12 $OUT/g/results.csv
