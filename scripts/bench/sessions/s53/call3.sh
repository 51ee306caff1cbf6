#!/bin/bash
# Fifty-third session, call 3 (.device/s53-c): the dynamic-M tables of
# S1-S8 as landed (6cbc6d5; the Python package's default) at M = 450, 650
# and 900 (the swapped bins 385-512, 513-768, 769-1024) against PyTorch's
# CUDA-graph chains, merged and split gate/up; ours per call (checked) and
# in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
export FF_DYNAMIC_SWEEP_M=450,650,900
mkdir -p $OUT
timeout 400 python3 scripts/bench/bench.py --out $OUT/S --dynamic .device/s53-c \
  --reps 100 --only dyn-S --baselines graph,graph_split,ours_dyn,ours_dyn_graph \
  > $OUT/bench-S.log 2>&1
echo "bench rc=$?"; grep -E "skipped|rror|FAIL" $OUT/bench-S.log | head
rm -f $OUT/S/*.png
grep "Ceilings" $OUT/S/README.md
dyn_graph_table $OUT/S/results.csv
