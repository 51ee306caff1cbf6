#!/bin/bash
# Forty-eighth session, call 6 (.device/s48-dynL): the dynamic-M bundles of
# G1-G10 and S1-S8 (compile-workloads.py --dynamic-m, the landed
# compiler: bins halved from 257 to 1024) at M = 300, 800, 1500 (workloads.dynamic_m_sweep) against
# PyTorch's chains in CUDA graphs (merged and, for S, split gate/up), one
# bench.py run per set, correctness checked in the same run.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
for set in S G; do
  timeout 270 python3 scripts/bench/bench.py --out $OUT/$set --dynamic .device/s48-dynL \
    --reps 100 --only dyn-$set --baselines graph,graph_split,ours_dyn,ours_dyn_graph > $OUT/bench-$set.log 2>&1
  echo "bench $set rc=$?"
  grep -E "skipped|rror|FAIL" $OUT/bench-$set.log | head
done
rm -f $OUT/*/*.png
python3 - $OUT/S/results.csv $OUT/G/results.csv <<'PY'
import csv, math, sys, os
acc = {}
for f in sys.argv[1:]:
    if not os.path.exists(f):
        print("missing", f); continue
    rows = list(csv.DictReader(open(f)))
    t = {(r["workload"], r["baseline"]): r for r in rows}
    for w in dict.fromkeys(r["workload"] for r in rows):
        g = lambda b: float(t[w, b]["hot_us"]) if (w, b) in t else float("nan")
        best = min(x for x in (g("graph"), g("graph_split")) if x == x)
        ours = g("ours_dyn_graph")
        err = t[w, "ours_dyn"]["rel_err"] if (w, "ours_dyn") in t else "-"
        print(f"{w:16s} graph {g('graph'):9.2f} split {g('graph_split'):9.2f} ours {ours:9.2f} best/ours {best/ours:5.2f} err {err}")
        acc.setdefault(w.split('-')[1][0], []).append(best / ours)
for k, v in acc.items():
    print(k, "geomean best/ours", round(math.exp(sum(map(math.log, v)) / len(v)), 3), "min", round(min(v), 3))
PY
# ff-run --check (poisoned output, fp32 reference) at the sweep's M
for w in S1 S7 G5 G8; do for m in 300 800 1500; do
  echo "check $w M=$m $(timeout 60 $ffrun .device/s48-dynL/$w --m $m --check 2>&1 | grep -oE "PASS|FAIL" | head -1)"; done; done
