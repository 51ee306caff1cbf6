#!/bin/bash
# Forty-ninth session, call 4 (.device/s49-d): the nine exact-M chains of
# the dynamic-M sweep whose kernels the search now swaps (compile-workloads.py
# --dynamic-sweep at e17cf9b, named dyn-*) against PyTorch's chains in CUDA
# graphs (bench.py: merged, and split gate/up for S), and the same chains
# without swapping (swap-operands=false, <W>-old) against them (<W>-new, the same
# bundles) in ff-run first, both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-d
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
for w in G4-m800 G5-m300 G5-m800 G6-m800 G8-m300 G8-m800 S1-m800 S3-m800 S7-m800; do
  ab_line $D old new $w 0; done 2>&1 | tee $OUT/ab.txt
only=dyn-G4-m800,dyn-G5-m300,dyn-G5-m800,dyn-G6-m800,dyn-G8-m300,dyn-G8-m800,dyn-S1-m800,dyn-S3-m800,dyn-S7-m800
timeout 400 python3 scripts/bench/bench.py --out $OUT/b --bundles $D --reps 100 --only $only \
  --baselines graph,graph_split,ours,ours_graph > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/b/*.png
python3 - $OUT/b/results.csv <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
by = collections.defaultdict(dict)
for r in rows:
    by[r["workload"]][r["baseline"]] = float(r["hot_us"])
print("| chain | PyTorch graph | graph split | ours in a graph | best PyTorch / ours |")
print("|---|---|---|---|---|")
for w, b in by.items():
    best = min(v for k, v in b.items() if k.startswith("graph"))
    print(f"| {w} | {b.get('graph','')} | {b.get('graph_split','')} | {b.get('ours_graph','')} | {best / b['ours_graph']:.3f} |")
PY
