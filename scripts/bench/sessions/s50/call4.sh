#!/bin/bash
# Fiftieth session, call 4 (.device/s50-d): the landed rule. The exact-M
# sweep chains whose kernels change (compile-workloads.py --dynamic-sweep:
# dyn-<W> and <W>-new; G5 at M = 300 on 256-row weight tiles, the
# identity-epilogue swapped kernels on paired stores) against the forty-
# ninth session's (<W>-old, .device/s49-e's dyn-<W>), and the lone 300 x
# 16384 x 4096 GEMM, in ff-run (both orders); against PyTorch's chains in
# CUDA graphs (bench.py: merged, and split gate/up for S). Memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-d
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
for w in G5-m300 G5-m800 S1-m800 S3-m800 S7-m800 GEMM-m300; do
  ab_line $D old new $w 0; done 2>&1 | tee $OUT/ab.txt
for w in G5-m300-new S1-m800-new; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
only=dyn-G5-m300,dyn-G5-m800,dyn-S1-m800,dyn-S3-m800,dyn-S7-m800
timeout 300 python3 scripts/bench/bench.py --out $OUT/b --bundles $D --reps 100 --only $only \
  --baselines graph,graph_split,ours_graph > $OUT/bench.log 2>&1; echo "bench rc=$?"
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
echo "| chain | check new | old us | new us | old us | new us | old / new |"
echo "|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
