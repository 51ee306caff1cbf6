#!/bin/bash
# Thirty-eighth session, call 5: S3-m256 in call 4's bench.py run took
# 160 us with the L2 term's plan (gated GEMM 128 x 64, 7 stages) where
# call 3's ff-run took 140.8. The three S3-m256 bundles (the searched one
# without the term, .device/s38-m256/S3-m256-def; with it,
# .device/s38-sweep/S3-m256; 128 x 128 by hand, S3-m256-g1t128) timed by
# both tools in one call: ff-run --check medians, then bench.py in CUDA
# graphs, three rounds alternating, the cuBLAS chain in each.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
declare -A B=([base]=.device/s38-m256/S3-m256-def [l2]=.device/s38-sweep/S3-m256 [t128]=.device/s38-m256/S3-m256-g1t128)
for v in base l2 t128; do
  mkdir -p /tmp/v/$v; ln -sfn $PWD/${B[$v]} /tmp/v/$v/S3-m256
done
for round in 1 2 3; do
  for v in base l2 t128; do
    echo "ffrun $v $round $(timeout 60 $ffrun ${B[$v]} --check --bench 20 2>&1 | grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p')"
  done
done
for round in 1 2 3; do
  for v in base l2 t128; do
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles /tmp/v/$v --reps 100 --only 'S3-m256$' --baselines graph,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v-$round/results.csv')): print(r['baseline'], r['hot_us'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
