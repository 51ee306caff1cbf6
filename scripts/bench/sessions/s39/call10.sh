#!/bin/bash
# Thirty-ninth session, call 10: the fallback's gated chain as two GEMMs
# from M = 128 and the split gate/up baselines. The package's GPU fallback
# tests; then bench.py on S1-S8 (.device/s39-s: compile-workloads.py --only
# S1,...,S8 at this change) and S3 at M = 16, 256, 512 (s38-sweep and
# s39-final bundles copied in), with the merged and the split chains,
# ours and ours_auto, per call and in graphs; targets.py on the result.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so FLASHFUSER_BUILD_DIR=$ff_build
timeout 200 python3 -m pytest -q python/tests/test_gpu_fallback.py 2>&1 | tail -3
timeout 300 python3 scripts/bench/bench.py --out $OUT/bench --bundles .device/s39-s --reps 100 --only 'S1$,S2$,S3$,S4$,S5$,S6$,S7$,S8$,S3-m16$,S3-m256$,S3-m512$' --baselines eager,eager_split,graph,graph_split,ours,ours_graph,ours_auto,ours_auto_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -rf $OUT/bench/*.png
python3 scripts/bench/targets.py $OUT/bench/results.csv | tail -22
python3 -c "
import csv
rows = list(csv.DictReader(open('$OUT/bench/results.csv')))
for w in dict.fromkeys(r['workload'] for r in rows):
    print(w, ' '.join(f\"{r['baseline']}={r['hot_us']}{('(' + r['path'] + ')') if r['path'] else ''}\" for r in rows if r['workload'] == w))"
