#!/bin/bash
# Fifty-third session, call 7 (.device/s53-g): the dynamic-M tables of
# G1-G10 and S1-S8 as landed (72b69de: 64-row bins from 257 to 768) at
# M = 300, 450 and 650 against PyTorch's CUDA-graph chains, merged and
# split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
export FF_DYNAMIC_SWEEP_M=300,450,650
mkdir -p $OUT
timeout 450 python3 scripts/bench/bench.py --out $OUT/GS --dynamic .device/s53-g \
  --reps 100 --only dyn- --baselines graph,graph_split,ours_dyn,ours_dyn_graph \
  > $OUT/bench.log 2>&1
echo "bench rc=$?"; grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/GS/*.png
grep "Ceilings" $OUT/GS/README.md
dyn_graph_table $OUT/GS/results.csv
