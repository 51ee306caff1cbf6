#!/bin/bash
# Fifty-third session, call 7 (.device/s53-g): the dynamic-M tables of
# G1-G10 and S1-S8 as landed (72b69de: 64-row bins from 257 to 768) at
# M = 300, 450 and 650 against PyTorch's CUDA-graph chains, merged and
# split gate/up; ours per call (checked) and in a graph.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
export FF_DYNAMIC_SWEEP_M=300,450,650
mkdir -p $OUT
timeout 450 python3 scripts/bench/bench.py --out $OUT/GS --dynamic .device/s53-g \
  --reps 100 --only dyn- --baselines graph,graph_split,ours_dyn,ours_dyn_graph \
  > $OUT/bench.log 2>&1
echo "bench rc=$?"; grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/GS/*.png
grep "Ceilings" $OUT/GS/README.md
python3 - $OUT/GS/results.csv <<'PY'
import csv, sys, collections, math
by = collections.defaultdict(dict)
err = {}
for r in csv.DictReader(open(sys.argv[1])):
    by[r["workload"]][r["baseline"]] = float(r["hot_us"])
    if r["baseline"] == "ours_dyn":
        err[r["workload"]] = r["rel_err"]
print("| workload | graph us | graph_split us | ours_dyn us (rel err) | ours_dyn_graph us | best PyTorch / ours graph |")
print("|---|---|---|---|---|---|")
logs = []
for w, b in by.items():
    best = min(b.get("graph", 1e30), b.get("graph_split", 1e30))
    r = best / b["ours_dyn_graph"]
    logs.append(math.log(r))
    print(f"| {w} | {b.get('graph')} | {b.get('graph_split')} | {b.get('ours_dyn')} ({err.get(w)}) | {b['ours_dyn_graph']} | {r:.3f} |")
print(f"geomean {math.exp(sum(logs) / len(logs)):.3f} over {len(logs)}")
PY
