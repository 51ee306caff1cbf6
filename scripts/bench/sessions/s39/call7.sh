#!/bin/bash
# Thirty-ninth session, call 7: the Python package's fallback="auto" on the
# workloads where the fused plans trail the cuBLAS chain (S3 and G5 at
# M = 256: .device/s39-final; S3 at M = 16: .device/s38-sweep, whose
# kernels the raster rule leaves alone), bench.py with eager, the chain in
# a graph, ours and ours_auto per call and in graphs, two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p /tmp/auto
ln -sfn $PWD/.device/s39-final/S3-m256 /tmp/auto/S3-m256
ln -sfn $PWD/.device/s39-final/G5-m256 /tmp/auto/G5-m256
ln -sfn $PWD/.device/s38-sweep/S3-m16 /tmp/auto/S3-m16
for round in 1 2; do
  timeout 280 python3 scripts/bench/bench.py --out $OUT/auto-$round --bundles /tmp/auto --reps 100 --only 'S3-m256$,G5-m256$,S3-m16$' --baselines eager,graph,ours,ours_graph,ours_auto,ours_auto_graph > $OUT/bench-$round.log 2>&1
  echo "bench $round rc=$?"
  python3 -c "
import csv
rows = list(csv.DictReader(open('$OUT/auto-$round/results.csv')))
for w in dict.fromkeys(r['workload'] for r in rows):
    print(w, ' '.join(f\"{r['baseline']}={r['hot_us']}{('(' + r['path'] + ')') if r['path'] else ''}\" for r in rows if r['workload'] == w))"
  grep -i "decision\|auto" $OUT/bench-$round.log | head -6
done
rm -rf $OUT/*/*.png
