#!/bin/bash
# Twenty-ninth session: G7 and G10 with 64 x 64 split-K GEMMs (the search
# after lifting isLowerable's blk_n >= 128 for split K on 64-row tiles;
# .device/s29x/new: compile-workloads.py DIR --weight-layout nk --only
# G7,G10, and G7 --dynamic-m --suffix=-dyn) against s29p's
# (.device/s29x/old); .device/s29x/ab: both as W-old / W-new. In graphs
# three rounds each; python_check.py (alternating inputs) on the new ones;
# the dynamic bundle --check'ed across bins.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/gpu/python_check.py .device/s29x/new --m 128,1000 2>&1 | tail -8
for m in 1 77 128 300 1000 4096; do
  echo "G7-dyn M=$m $(timeout 60 $ffrun .device/s29x/new/G7-dyn --m $m --check --bench 5 2>&1 | grep -o 'rel_l2=[^ ]*\|median_us=[^ ]*\|status=[A-Z]*' | tr '\n' ' ')"
done
ONLY="G" BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29x/ab > $OUT/ab.log 2>&1; echo "ab rc=$?"
sed -n '/^| workload/,$p' $OUT/ab.log
for r in 1 2 3; do for v in old new; do
  python3 scripts/bench/bench.py --out $OUT/$v$r --bundles .device/s29x/$v --reps 100 --only 'G7,G10' --baselines graph,ours_graph > $OUT/bench-$v$r.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v$r/*.png $OUT/$v$r/README.md
done; done
python3 - $OUT <<'PY'
import csv, sys
t = {}
for v in ("old", "new"):
    for r in "123":
        for row in csv.DictReader(open(f"{sys.argv[1]}/{v}{r}/results.csv")):
            t[row["workload"], row["baseline"], v + r] = float(row["hot_us"])
for w in ("G7", "G10"):
    print(w, "graph " + "/".join(f"{t[w, 'graph', 'old' + r]:.2f}" for r in "123"),
          *(f"{v} " + "/".join(f"{t[w, 'ours_graph', v + r]:.2f}" for r in "123") for v in ("old", "new")))
PY
