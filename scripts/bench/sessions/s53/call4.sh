#!/bin/bash
# Fifty-third session, call 4 (.device/s53-d): S1-S8's dynamic-M tables on
# finer bins (64 rows from 129 to 1024, 128 from 1025 to 2048; new) against
# the landed bins (old, b4caef7) at M = 300, 450, 650, 800, 900, each set
# in its own bench.py process (PyTorch's CUDA-graph chains, merged and
# split, timed in the first); ours per call checked in the second.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
export FF_DYNAMIC_SWEEP_M=300,450,650,800,900
mkdir -p $OUT
timeout 250 python3 scripts/bench/bench.py --out $OUT/old --dynamic .device/s53-d/old \
  --reps 100 --only dyn-S --baselines graph,graph_split,ours_dyn_graph > $OUT/old.log 2>&1
echo "old rc=$?"
timeout 250 python3 scripts/bench/bench.py --out $OUT/new --dynamic .device/s53-d/new \
  --reps 100 --only dyn-S --baselines ours_dyn,ours_dyn_graph > $OUT/new.log 2>&1
echo "new rc=$?"; grep -E "skipped|rror|FAIL" $OUT/*.log | head
rm -f $OUT/*/*.png
python3 - $OUT/old/results.csv $OUT/new/results.csv <<'PY'
import csv, sys, math
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d[(r["workload"], r["baseline"])] = r
    return d
old, new = load(sys.argv[1]), load(sys.argv[2])
ws = sorted({w for w, _ in old}, key=lambda w: (w.split("-")[1], int(w.split("-m")[1])))
print("| workload | PyTorch best us | old us | new us | old/new | PyTorch/new | new rel err |")
print("|---|---|---|---|---|---|---|")
g1, g2 = [], []
for w in ws:
    pt = min(float(old[(w, b)]["hot_us"]) for b in ("graph", "graph_split"))
    o = float(old[(w, "ours_dyn_graph")]["hot_us"]); n = float(new[(w, "ours_dyn_graph")]["hot_us"])
    g1.append(math.log(o / n)); g2.append(math.log(pt / n))
    print(f"| {w} | {pt} | {o} | {n} | {o/n:.3f} | {pt/n:.3f} | {new[(w, 'ours_dyn')]['rel_err']} |")
print(f"geomean old/new {math.exp(sum(g1)/len(g1)):.3f}, PyTorch/new {math.exp(sum(g2)/len(g2)):.3f} over {len(g1)}")
PY
