#!/bin/bash
# Thirtieth session: 1x1-convolution chains (C3, C4 at batch 1 and 32) as
# kernel sequences (.device/s30e, the search now prices them) against the
# fused plans (.device/s30c): ff-run --check of the new bundles, then
# bench.py on each set of bundles in one process each, back to back, twice.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in C3-b1 C4-b1 C3-b32 C4-b32; do
  echo "$w $(timeout 60 $ffrun .device/s30e/$w --check --bench 20 2>&1 | grep RESULT)"
done
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s30c --reps 20 --only 'C3-b1' --baselines eager,ours > /dev/null 2>&1
for round in 1 2; do
  for v in s30c s30e; do
    timeout 120 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles .device/$v --reps 100 --only 'C3-b1,C4-b1,C3-b32,C4-b32' --baselines eager,graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$?"
  done
done
python3 - <<'PY'
import csv, os
for rnd in (1, 2):
    for v in ("s30c", "s30e"):
        rows = list(csv.DictReader(open(f"{os.environ['OUT']}/{v}-{rnd}/results.csv")))
        t = {}
        for r in rows:
            t.setdefault(r["workload"], {})[r["baseline"]] = (float(r["hot_us"]), r["rel_err"])
        print(rnd, v, " | ".join(f"{w}: graph {d['graph'][0]:.1f} ours_graph {d['ours_graph'][0]:.1f} ours {d['ours'][0]:.1f} ({d['ours'][1]}) eager {d['eager'][0]:.1f}" for w, d in t.items()))
PY
