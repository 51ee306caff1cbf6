#!/bin/bash
# Forty-eighth session, call 3 (.device/s48-st, .device/s48-dyn): call 2's
# dynamic-M sweep with, beside the dynamic bundles, each chain compiled
# for that very M (compile-workloads.py --dynamic-sweep: the plan searched
# at M, what a bin whose upper end is M would run), against PyTorch's
# chains in CUDA graphs.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p $OUT
for set in S G; do
  timeout 280 python3 scripts/bench/bench.py --out $OUT/$set --bundles .device/s48-st --dynamic .device/s48-dyn \
    --reps 100 --only dyn-$set --baselines graph,graph_split,ours,ours_graph,ours_dyn_graph > $OUT/bench-$set.log 2>&1
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
        st, dy = g("ours_graph"), g("ours_dyn_graph")
        err = t[w, "ours"]["rel_err"] if (w, "ours") in t else "-"
        print(f"{w:16s} best {best:9.2f} static {st:9.2f} dyn {dy:9.2f} best/static {best/st:5.2f} best/dyn {best/dy:5.2f} dyn/static {dy/st:5.2f} err {err}")
        k = w.split('-')[1][0]
        acc.setdefault(k + " best/static", []).append(best / st)
        acc.setdefault(k + " best/dyn", []).append(best / dy)
        acc.setdefault(k + " dyn/static", []).append(dy / st)
for k, v in acc.items():
    print(k, "geomean", round(math.exp(sum(map(math.log, v)) / len(v)), 3), "min", round(min(v), 3), "max", round(max(v), 3))
PY
# Gated 128 x 192 (S8: 176) tiles at a partial last m tile: the kernel that
# skipped the rows' epilogue and spilled (spill) against the one that
# computes it (fix), both --check'ed (poisoned output, fp32 reference).
. scripts/bench/session-lib.sh
for w in S1m300 S4m300 S8m800; do ab_line .device/s48-sp spill fix $w 0; done
memcheck .device/s48-sp/S1m300-fix
