#!/bin/bash
# Twenty-ninth session: do PDL-launched second kernels of clusters of 8
# lose because they share SMs? G4, G6, G9, G10, S5, S6, S8 (second kernel
# split K over clusters of 8): base (s29j's, no PDL), all (PDL and the
# prefetch for clusters of 8 too) and pad (the same with the second
# kernel's dynamic shared memory raised to 116 KiB, so no two of its CTAs
# and none beside a first-kernel CTA of 112+ KiB share an SM); both built
# with temporary compiler switches. .device/s29m/ab: all as W-VARIANT.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
ONLY="G|S" BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29m/ab > $OUT/ab.log 2>&1; echo "ab rc=$?"
for r in 1 2 3; do for v in base all pad; do
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles .device/s29m/$v --reps 100 --only 'G4,G6,G9,G10,S5,S6,S8' --baselines ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys
t = {}
vs = ("base", "all", "pad")
for v in vs:
    for r in "123":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], v + r] = float(row["hot_us"])
for w in ("G4", "G6", "G9", "G10", "S5", "S6", "S8"):
    print(w, *(f"{v} " + "/".join(f"{t[w, v + r]:.2f}" for r in "123") for v in vs))
PY
