#!/bin/bash
# Twenty-ninth session: where per-call time goes with programmatic launch
# (.device/s29c/{base,pdl}, see s29b.sh): eager launches (ours_direct),
# the cached per-call graph (ours) and GPU time in graphs (ours_graph),
# base and pdl twice each; and the race check of s29b_race.py on G3.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/gpu/python_check.py .device/s29c/pdl --m 128 2>&1 | tail -12
for v in base pdl base2 pdl2; do
  python3 scripts/bench/bench.py --out $OUT/$v --bundles .device/s29c/${v%2} --reps 200 --only 'G3$,S2,S8' --baselines ours,ours_direct,ours_graph > $OUT/bench-$v.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v/*.png $OUT/$v/README.md
done
python3 - $OUT <<'PY'
import csv, sys
t = {}
for v in ("base", "pdl", "base2", "pdl2"):
    for r in csv.DictReader(open(f"{sys.argv[1]}/{v}/results.csv")):
        t[r["workload"], r["baseline"], v] = float(r["hot_us"])
ws = sorted({w for w, _, _ in t}, key=lambda w: (w[0], int(w[1:])))
for b in ("ours", "ours_direct", "ours_graph"):
    print(b, " ".join(f"{w} {t[w,b,'base']:.1f}/{t[w,b,'base2']:.1f}->{t[w,b,'pdl']:.1f}/{t[w,b,'pdl2']:.1f}" for w in ws))
PY
grep -h "launch floor" $OUT/bench-*.log
