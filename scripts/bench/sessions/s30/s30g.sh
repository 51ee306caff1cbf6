#!/bin/bash
# Thirtieth session: 3x3 -> 1x1 chains at batch 32 (C7-b32, C8-b32) as
# kernel sequences, a 3x3 convolution GEMM (im2col through 4-D TMA boxes)
# then a 1x1 GEMM (.device/s30g), against their fused plans (.device/s30e):
# ff-run --check of the sequences (and of the first kernel's halo-free
# im2col at the image borders: the whole output is compared), then
# bench.py on each set of bundles, one process each, two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in C7-b32 C8-b32; do
  echo "$w $(timeout 60 $ffrun .device/s30g/$w --check --bench 20 2>&1 | grep RESULT)"
done
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s30e --reps 20 --only 'C7-b32' --baselines eager,ours > /dev/null 2>&1
for round in 1 2; do
  for v in s30e s30g; do
    timeout 120 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles .device/$v --reps 100 --only 'C7-b32,C8-b32' --baselines eager,graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$?"
  done
done
python3 - <<'PY'
import csv, os
for rnd in (1, 2):
    for v in ("s30e", "s30g"):
        rows = list(csv.DictReader(open(f"{os.environ['OUT']}/{v}-{rnd}/results.csv")))
        t = {}
        for r in rows:
            t.setdefault(r["workload"], {})[r["baseline"]] = (float(r["hot_us"]), r["rel_err"])
        print(rnd, v, " | ".join(f"{w}: graph {d['graph'][0]:.1f} ours_graph {d['ours_graph'][0]:.1f} ours {d['ours'][0]:.1f} ({d['ours'][1]}) eager {d['eager'][0]:.1f}" for w, d in t.items()))
PY
rm -rf $OUT/*/*.png
