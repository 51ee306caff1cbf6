#!/bin/bash
# Fifty-fifth session, call 8 (.device/s55-h, the G1-G10 tables of 1da458b:
# an FFN's 64-row bins to 1024, no split over 4 past 640 rows): against
# PyTorch's CUDA-graph chain at call 5's M (330, 600, 680, 800, 930) and
# at 870 and 1000; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
FF_DYNAMIC_SWEEP_M=330,600,680,800,870,930,1000 timeout 560 python3 scripts/bench/bench.py --out $OUT/G \
  --dynamic .device/s55-h --reps 100 --only dyn-G \
  --baselines graph,ours_dyn,ours_dyn_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"; grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/G/*.png
grep "Ceilings" $OUT/G/README.md
dyn_graph_table $OUT/G/results.csv
