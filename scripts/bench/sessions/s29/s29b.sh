#!/bin/bash
# Twenty-ninth session: programmatic dependent launch between a sequence's
# kernels. .device/s29b: compile-workloads.py --weight-layout nk --only
# S1..S8,G3 with --suffix=-pdl (default) and --suffix=-base
# (--lower-options programmatic-launch=false); .device/s29c/{pdl,base}: the
# same bundles by workload name for bench.py.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/gpu/python_check.py .device/s29c/pdl --m 128 2>&1 | tail -12
ONLY='S|G3' BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29b > $OUT/ab.log 2>&1; echo "ab rc=$?"
for v in base pdl base2 pdl2; do
  python3 scripts/bench/bench.py --out $OUT/$v --bundles .device/s29c/${v%2} --reps 100 --only 'G3$,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines ours,ours_graph > $OUT/bench-$v.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v/*.png
done
tail -22 $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys
t = {}
for v in ("base", "pdl", "base2", "pdl2"):
    for r in csv.DictReader(open(f"{sys.argv[1]}/{v}/results.csv")):
        t[r["workload"], r["baseline"], v] = float(r["hot_us"])
ws = sorted({w for w, _, _ in t}, key=lambda w: (w[0], int(w[1:])))
for b in ("ours", "ours_graph"):
    print(b, " ".join(f"{w} {t[w,b,'base']:.1f}/{t[w,b,'base2']:.1f}->{t[w,b,'pdl']:.1f}/{t[w,b,'pdl2']:.1f}" for w in ws))
PY
