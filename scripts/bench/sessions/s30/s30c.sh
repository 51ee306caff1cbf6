#!/bin/bash
# Thirtieth session: set C (batch 1 and 32) with the C fast path, the first
# run of the set since the twenty-sixth session: eager, the CUDA-graph
# chain, ours (C path), ours_py (Python path), ours in a graph, and
# fallback="auto" per call and in a graph; rel err against the fp32
# reference in the same run (.device/s30c: compile-workloads.py DIR
# --weight-layout nk --only C1-b1,...,C8-b32; 15 of 16 bundles
# byte-identical to s26h's, C2-b32 changed since).
set -u
# BUNDLES=.device/s30e for the final run (s30f: C3, C4 as sequences).
B=${BUNDLES:-.device/s30c}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 -c "from flashfuser import _runtime; print(_runtime.fastcall_status())"
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles $B --reps 20 --only 'C1-b1,C2-b1' --baselines eager,ours > /dev/null 2>&1
timeout 480 python3 scripts/bench/bench.py --out $OUT/c --bundles $B --reps 100 --only C --baselines eager,graph,ours,ours_py,ours_graph,ours_auto,ours_auto_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/c/*.png
python3 scripts/bench/ratios.py $OUT/c/results.csv C
python3 - <<'PY'
import csv, os
rows = list(csv.DictReader(open(os.environ["OUT"] + "/c/results.csv")))
t = {}
for r in rows:
    t.setdefault(r["workload"], {})[r["baseline"]] = (float(r["hot_us"]), r["rel_err"], r.get("path", ""))
for w, d in t.items():
    print(w, " ".join(f"{b}={v[0]:.1f}{'' if v[1] in ('nan', '') else '(' + v[1] + ')'}{'[' + v[2] + ']' if v[2] else ''}" for b, v in d.items()))
PY
