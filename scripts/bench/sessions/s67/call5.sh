#!/bin/bash
# Sixty-seventh session, call 5: S6's standard row (eager, the CUDA-graph
# chain, ours per call and in a graph, 100 reps) with its down GEMM no
# longer split over 8 (.device/s67-std/S6: compile-workloads.py
# --weight-layout nk --search-options target=h200 --only S6 at this
# session's compiler).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 150 python3 scripts/bench/bench.py --out $OUT/s6 --bundles .device/s67-std --reps 100 \
  --only 'S6' --baselines eager,graph,ours,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/s6/*.png
grep -E "^\| (workload|S6)" $OUT/s6/README.md
grep -h "Ceilings" $OUT/s6/README.md
