#!/bin/bash
# Thirty-first session: 3x3 convolutions in TMA im2col mode (.device/s31a:
# m tiled by output pixels across image rows and images, split K and A
# multicast open to the conv GEMMs) against the whole-image-row boxes
# (.device/s30g): ff-run --check of every changed bundle (fp32 reference,
# output poisoned), compute-sanitizer on two, then bench.py on each set
# of bundles, one process each, two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
W=${W:-C5-b1,C6-b1,C6-b32,C7-b1,C7-b32,C8-b1,C8-b32}
for w in ${W//,/ }; do
  echo "check $w $(timeout 60 $ffrun .device/s31a/$w --check --bench 20 2>&1 | grep -E 'RESULT|rror' | head -3)"
done
for w in C8-b1 C7-b32; do
  echo "memcheck $w $(timeout 120 compute-sanitizer --tool memcheck $ffrun .device/s31a/$w --check 2>&1 | grep -E 'ERROR SUMMARY|RESULT' | tr '\n' ' ')"
done
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s30g --reps 20 --only C7-b32 --baselines eager,ours > /dev/null 2>&1
for round in 1 2; do
  for v in s30g s31a; do
    timeout 200 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles .device/$v --reps 100 --only "$W" --baselines graph,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$?"
  done
done
python3 - <<'PY'
import csv, os
out = os.environ["OUT"]
t = {}
for rnd in (1, 2):
    for v in ("s30g", "s31a"):
        for r in csv.DictReader(open(f"{out}/{v}-{rnd}/results.csv")):
            t.setdefault(r["workload"], {}).setdefault(f"{v}/{r['baseline']}", []).append(float(r["hot_us"]))
print("workload | cuDNN graph | s30g ours_graph | s31a ours_graph")
for w, d in t.items():
    f = lambda k: " / ".join(f"{x:.1f}" for x in d.get(k, []))
    print(f"{w} | {f('s30g/graph')} | {f('s30g/ours_graph')} | {f('s31a/ours_graph')}")
PY
rm -rf $OUT/*/*.png
