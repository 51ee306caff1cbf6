#!/bin/bash
# Twenty-seventh session, tenth call: GEMM-4096 and GEMM-8192 against
# cuBLAS in CUDA graphs, twice, 300 reps each (s27b measured 4096^3 at
# 0.88x where earlier sessions measured 0.99-1.01x with the same plan):
# .device/s27g (compile-workloads.py DIR --weight-layout nk --single-gemms
# --only GEMM-4096,GEMM-8192,...).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for pass in 1 2; do
  python3 scripts/bench/bench.py --out $OUT/p$pass --bundles .device/s27g --reps 300 --only 'GEMM-4096$,GEMM-8192' --baselines graph,ours_graph > $OUT/p$pass.log 2>&1
  echo "pass $pass rc=$?"
  rm -f $OUT/p$pass/*.png
  cut -d, -f1,7,8,9 $OUT/p$pass/results.csv
done
