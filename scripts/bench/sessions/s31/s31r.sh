#!/bin/bash
# Thirty-first session: C8-b32 with its 3x3 GEMM at 128 x 64 with the
# streamed halo (.device/s31r/halo: s31q's C8-b32-halo128) against the
# searched sequence (.device/s31r/base: s31q's C8-b32-base), in bench.py
# beside cuDNN's chain in a CUDA graph, one process each, two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s31r/base --reps 20 --only C8-b32 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for v in base halo; do
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles .device/s31r/$v --reps 100 --only C8-b32 --baselines eager,graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "$v $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v-$round/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
