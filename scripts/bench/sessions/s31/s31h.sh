#!/bin/bash
# Thirty-first session: C5-b1 and C6-b1 as hand-set kernel sequences
# (s31g-variants.sh; .device/s31h/VARIANT/W, the same bundles as
# .device/s31g/W-VARIANT) against their fused kernels (def): ff-run --check
# of each, then bench.py in CUDA graphs, one process per variant, two
# rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in .device/s31h/*/*; do
  echo "check $b $(timeout 60 $ffrun $b --check 2>&1 | grep -oE 'rel_l2=[^ ]+|status=[A-Z]+' | tr '\n' ' ')"
done
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s31h/def --reps 20 --only C5-b1,C6-b1 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for d in .device/s31h/*; do
    v=$(basename $d); only=$(ls $d | paste -sd,)
    timeout 120 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles $d --reps 100 --only $only --baselines graph,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$?"
  done
done
python3 - <<'PY'
import csv, glob, os
t = {}
for p in sorted(glob.glob(os.environ["OUT"] + "/*-[12]/results.csv")):
    v = os.path.basename(os.path.dirname(p)).rsplit("-", 1)[0]
    for r in csv.DictReader(open(p)):
        t.setdefault(r["workload"], {}).setdefault(v if r["baseline"] == "ours_graph" else "cuDNN", []).append(float(r["hot_us"]))
for w, d in t.items():
    print(w, " | ".join(f"{k} " + " / ".join(f"{x:.2f}" for x in xs) for k, xs in sorted(d.items())))
PY
rm -rf $OUT/*/*.png $OUT/*/README.md
