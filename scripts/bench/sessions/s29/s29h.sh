#!/bin/bash
# Twenty-ninth session: where _s0 should let _s1 launch. .device/s29h:
# G3, G4, G6-G10, S1, S4, S8 (compile-workloads.py --weight-layout nk) as
# -base (programmatic-launch=false), -pdl (launch_dependents at _s0's
# entry, no L2 prefetch), -pf (entry, prefetch), -late / -latepf
# (launch_dependents once _s0's producer has issued its last load; built
# with a temporary compiler switch); .device/s29i/VARIANT/W for bench.py.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
ONLY="G|S" BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29h > $OUT/ab.log 2>&1; echo "ab rc=$?"
for r in 1 2; do for v in base pdl pf late latepf; do
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles .device/s29i/$v --reps 100 --only 'G3$,G4,G6,G7,G8,G9,G10,S1,S4,S8' --baselines ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys
t = {}
vs = ("base", "pdl", "pf", "late", "latepf")
for v in vs:
    for r in "12":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], v + r] = float(row["hot_us"])
ws = sorted({w for w, _ in t}, key=lambda w: (w[0], int(w[1:])))
print("ours_graph hot us (round 1/round 2):", *vs)
for w in ws:
    print(w, *(f"{t[w, v + '1']:.2f}/{t[w, v + '2']:.2f}" for v in vs))
PY
