#!/bin/bash
# Fiftieth session, call 8 (.device/s50-g): the seven exact-M sweep
# chains the landed swapped split K changes (compile-workloads.py
# --weight-layout nk --dynamic-sweep at 06f8ab1, dyn-<W>) against PyTorch's
# chains in CUDA graphs (bench.py: merged, and split gate/up for S).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
timeout 200 python3 scripts/bench/bench.py --out $OUT/b --bundles .device/s50-g --reps 100 \
  --only dyn-G5-m300,dyn-S3-m300,dyn-G8-m800,dyn-S2-m800,dyn-S4-m800,dyn-S5-m800,dyn-S6-m800 \
  --baselines graph,graph_split,ours_graph > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/b/*.png
graph_table $OUT/b/results.csv
