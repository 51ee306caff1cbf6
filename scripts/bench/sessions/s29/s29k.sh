#!/bin/bash
# Twenty-ninth session: pricing PDL's overlap into the second kernel's plan.
# .device/s29k/cur: s29j's G9, G10, S8 (second kernel split K over clusters
# of 8, no PDL); .device/s29k/cr: the same with the search crediting 2 us
# to second-kernel plans of clusters up to 4 (temporary FF_EXP_CREDIT=2000),
# which picks clusters of 4 and so PDL; .device/s29k/ab: both as W-VARIANT.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
ONLY="G|S" BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29k/ab > $OUT/ab.log 2>&1; echo "ab rc=$?"
for r in 1 2 3; do for v in cur cr; do
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles .device/s29k/$v --reps 100 --only 'G9,G10,S8' --baselines ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys
t = {}
for v in ("cur", "cr"):
    for r in "123":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], v + r] = float(row["hot_us"])
for w in ("G9", "G10", "S8"):
    print(w, *(f"{v} " + "/".join(f"{t[w, v + r]:.2f}" for r in "123") for v in ("cur", "cr")))
PY
