#!/bin/bash
# Twenty-ninth session: which part of PDL slows G4, G6 and G9 in graphs.
# .device/s29f: G4, G6, G8, G9, G10, S8, S4 (compile-workloads.py
# --weight-layout nk) as -base (programmatic-launch=false), -pdl (no L2
# prefetch), -pf (prefetch), -nt / -ntpf (no launch_dependents in _s0,
# without / with the prefetch; built with a temporary compiler switch);
# .device/s29g/VARIANT/W: the same for bench.py.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
ONLY='G|S' BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29f > $OUT/ab.log 2>&1; echo "ab rc=$?"
for r in 1 2; do for v in base pdl pf nt ntpf; do
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles .device/s29g/$v --reps 100 --only 'G4,G6,G8,G9,G10,S8,S4' --baselines ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys
t = {}
vs = ("base", "pdl", "pf", "nt", "ntpf")
for v in vs:
    for r in "12":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], v + r] = float(row["hot_us"])
ws = sorted({w for w, _ in t}, key=lambda w: (w[0], int(w[1:])))
print("ours_graph hot us (round 1/round 2):", *vs)
for w in ws:
    print(w, *(f"{t[w, v + '1']:.2f}/{t[w, v + '2']:.2f}" for v in vs))
PY
