#!/bin/bash
# Thirty-eighth session, call 4: the G5/S3 M sweep with the L2 term
# (.device/s38-sweep: compile-workloads.py DIR --weight-layout nk --only
# G5-m16,...,S3-m8192) against eager and the CUDA-graph chain, one
# bench.py run (correctness checked in the same run).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 500 python3 scripts/bench/bench.py --out $OUT/sweep --bundles .device/s38-sweep --reps 100 --only 'G5-m,S3-m' --baselines eager,graph,ours,ours_graph > $OUT/bench-sweep.log 2>&1
echo "bench sweep rc=$?"
rm -f $OUT/*/*.png
python3 - $OUT/sweep/results.csv <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["workload"], r["baseline"]): r for r in rows}
gs = {"G": [], "S": []}
for w in dict.fromkeys(r["workload"] for r in rows):
    g = lambda b: float(t[w, b]["hot_us"]) if (w, b) in t else float("nan")
    r = g('graph') / g('ours_graph')
    gs[w[0]].append(r)
    print(f"{w:9s} eager {g('eager'):8.2f} graph {g('graph'):8.2f} ours {g('ours'):8.2f} "
          f"ours_graph {g('ours_graph'):8.2f} graph/ours_graph {r:5.2f} "
          f"eager/ours {g('eager')/g('ours'):5.2f} err {t[w,'ours_graph'].get('rel_err','')}")
for k, v in gs.items():
    if v:
        print(k, "geomean graph/ours_graph", round(math.exp(sum(map(math.log, v)) / len(v)), 3))
PY
