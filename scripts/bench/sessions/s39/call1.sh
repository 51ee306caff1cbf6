#!/bin/bash
# Thirty-ninth session, call 1: gated GEMMs split over a pair along k.
# (a) .device/s39-gated (gated-halves.py DIR 16): every tile shape's and
# cluster's best-ranked plan of S-series gate|up GEMMs alone, --check'ed
# and timed side by side (ab.sh: ff-run medians of 20 batches of 10
# launches). (b) S3-m256's sequence with the split gated GEMM
# (.device/s39-s3/S3-m256, compile-workloads.py --only S3-m256) against
# the one before it (.device/s38-sweep/S3-m256: 128 x 64 unsplit), ff-run
# --check medians, three rounds alternating, then bench.py in CUDA graphs
# with the cuBLAS chain, two rounds each.
set -u
RUN_TIMEOUT=30 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s39-gated > $OUT/ab.log 2>&1
echo "ab rc=$? $(grep -c status=PASS $OUT/ab.log) PASS"
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
declare -A B=([old]=.device/s38-sweep/S3-m256 [split]=.device/s39-s3/S3-m256)
for v in old split; do
  mkdir -p /tmp/v/$v; ln -sfn $PWD/${B[$v]} /tmp/v/$v/S3-m256
done
for round in 1 2 3; do
  for v in old split; do
    echo "ffrun $v $round $(timeout 60 $ffrun ${B[$v]} --check --bench 20 2>&1 | grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p')"
  done
done
for round in 1 2; do
  for v in old split; do
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles /tmp/v/$v --reps 100 --only 'S3-m256$' --baselines graph,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v-$round/results.csv')): print(r['baseline'], r['hot_us'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
sed -n "/^| workload/,\$p" $OUT/ab.log
