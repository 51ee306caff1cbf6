#!/bin/bash
# Thirty-first session: sequence or fused for the small G chains, timed as
# bench.py times them (CUDA graphs and the per-call fast path): the
# default bundles (def: G3, G7, G9, G10 as sequences), the best-ranked fused
# plans (r0) and for G1-G3 one more fused plan that ff-run timed close
# (alt: G1-r4, G2-r3, G3-r1), .device/s31f/{def,r0,alt} copied from
# .device/s31e; one process per set, two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s31f/def --reps 20 --only G1,G3 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for v in def r0 alt; do
    only=G1,G2,G3,G7,G9,G10; [ $v = alt ] && only=G1,G2,G3
    timeout 150 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles .device/s31f/$v --reps 100 --only $only --baselines graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "bench $v $round rc=$?"
  done
done
python3 - <<'PY'
import csv, os
out = os.environ["OUT"]
t = {}
for rnd in (1, 2):
    for v in ("def", "r0", "alt"):
        p = f"{out}/{v}-{rnd}/results.csv"
        if not os.path.exists(p):
            continue
        for r in csv.DictReader(open(p)):
            t.setdefault(r["workload"], {}).setdefault(f"{v}/{r['baseline']}", []).append(float(r["hot_us"]))
print("workload | graph | def graph | r0 graph | alt graph | def call | r0 call | alt call")
for w, d in t.items():
    f = lambda k: " / ".join(f"{x:.2f}" for x in d.get(k, [])) or "-"
    print(f"{w} | {f('def/graph')} | {f('def/ours_graph')} | {f('r0/ours_graph')} | {f('alt/ours_graph')} | {f('def/ours')} | {f('r0/ours')} | {f('alt/ours')}")
PY
rm -rf $OUT/*/*.png
