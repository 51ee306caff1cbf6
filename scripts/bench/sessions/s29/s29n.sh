#!/bin/bash
# Twenty-ninth session: PDL for every sequence, the second kernel spread one
# CTA per SM (its shared memory raised past half an SM where its grid fits
# one wave) and its L2 weight prefetch only for weights of 16 MiB or more
# (.device/s29n: compile-workloads.py DIR --weight-layout nk --only
# G3,...,G10,S1,...,S8) against s29j's bundles (PDL only for clusters up
# to 4, always with the prefetch; .device/s29o/old); .device/s29o/ab: both
# as W-old / W-new. python_check.py on the new ones.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/gpu/python_check.py .device/s29n --m 128 > $OUT/python_check.log 2>&1; echo "python_check rc=$? $(tail -1 $OUT/python_check.log)"
ONLY="G|S" BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29o/ab > $OUT/ab.log 2>&1; echo "ab rc=$?"
for r in 1 2 3; do for v in old new; do
  d=.device/s29o/old; [ $v = new ] && d=.device/s29n
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles $d --reps 100 --only 'G3$,G4,G5$,G6,G7,G8$,G9,G10,S1$,S2,S3$,S4,S5,S6,S7,S8' --baselines ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys, math
t = {}
for v in ("old", "new"):
    for r in "123":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], v + r] = float(row["hot_us"])
ws = sorted({w for w, _ in t}, key=lambda w: (w[0], int(w[1:])))
ratios = []
for w in ws:
    old = sorted(t[w, "old" + r] for r in "123")[1]
    new = sorted(t[w, "new" + r] for r in "123")[1]
    ratios.append(old / new)
    print(w, "old " + "/".join(f"{t[w, 'old' + r]:.2f}" for r in "123"), "new " + "/".join(f"{t[w, 'new' + r]:.2f}" for r in "123"), f"old/new {old / new:.3f}")
print("geomean old/new %.4f" % math.exp(sum(map(math.log, ratios)) / len(ratios)))
PY
