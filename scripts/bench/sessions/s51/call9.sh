#!/bin/bash
# Fifty-first session, call 9 (.device/s51-i): the four exact-M chains the
# search's 64-row swapped tiles change (compile-workloads.py --dynamic-sweep
# at 97a4131, dyn-<W>) against PyTorch's chains in CUDA graphs (bench.py:
# merged, and split gate/up for S).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
timeout 200 python3 scripts/bench/bench.py --out $OUT/b --bundles .device/s51-i --reps 100 \
  --only dyn-G4-m800,dyn-G7-m800,dyn-G9-m300,dyn-S2-m300 \
  --baselines graph,graph_split,ours_graph > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/b/*.png
graph_table $OUT/b/results.csv
