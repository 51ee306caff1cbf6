#!/bin/bash
# Thirty-eighth session, call 6: bench.py's dynamic-M rows (ours_dyn,
# ours_dyn_graph: the dynamic bundles .device/s38-dyn, compile-workloads.py
# --dynamic-m --only G5,S3, called at each M of the sweep) beside the
# static sweep (.device/s38-sweep) and the CUDA-graph chain, one run.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 500 python3 scripts/bench/bench.py --out $OUT/dyn --bundles .device/s38-sweep --dynamic .device/s38-dyn --reps 100 --only 'G5-m,S3-m' --baselines graph,ours,ours_graph,ours_dyn,ours_dyn_graph > $OUT/bench-dyn.log 2>&1
echo "bench rc=$?"
grep -E "skipped|rror" $OUT/bench-dyn.log | head
rm -f $OUT/*/*.png
python3 - $OUT/dyn/results.csv <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["workload"], r["baseline"]): r for r in rows}
acc = {}
for w in dict.fromkeys(r["workload"] for r in rows):
    g = lambda b: float(t[w, b]["hot_us"]) if (w, b) in t else float("nan")
    e = lambda b: t[w, b]["rel_err"] if (w, b) in t else "-"
    print(f"{w:9s} graph {g('graph'):8.2f} ours_graph {g('ours_graph'):8.2f} "
          f"dyn_graph {g('ours_dyn_graph'):8.2f} graph/dyn_graph "
          f"{g('graph')/g('ours_dyn_graph'):5.2f} static/dyn {g('ours_graph')/g('ours_dyn_graph'):5.2f} "
          f"err ours {e('ours')} dyn {e('ours_dyn')}")
    acc.setdefault(w[0], []).append(g('graph') / g('ours_dyn_graph'))
for k, v in acc.items():
    print(k, "geomean graph/ours_dyn_graph", round(math.exp(sum(map(math.log, v)) / len(v)), 3))
PY
