#!/bin/bash
# Sixty-ninth session, calls 3 and 4: bundles of the search before and
# after a change. .device/s69-ab/W-old and W-new for the five G chains it
# moves (ab_both: checked, timed as CUDA-graph replays in both orders),
# then bench.py's G rows of .device/s69-gold and of NEW in alternation
# (old, new, old, new), their ratios and the A/B table last.
#   usage: ab_bench.sh NEW     (OUT set, as for every session call)
set -u
NEW=$1
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
for w in G3 G4 G7 G9 G10; do ab_both .device/s69-ab old new $w 0; done > $OUT/ab.txt
G='G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$'
bench() { # label bundles
  PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so timeout 200 python3 scripts/bench/bench.py \
    --out $OUT/$1 --bundles $2 --reps 100 --only "$G" --baselines eager,graph,ours,ours_graph \
    > $OUT/$1.log 2>&1
  echo "$1 rc=$?"
}
bench g-old1 .device/s69-gold; bench g-new1 $NEW
bench g-old2 .device/s69-gold; bench g-new2 $NEW
rm -f $OUT/*/*.png
# Four runs' folders are more files than a call brings back: one archive.
cd $OUT && tar czf g-runs.tgz g-old1 g-new1 g-old2 g-new2 && rm -rf g-old1 g-new1 g-old2 g-new2 && cd - > /dev/null
for r in g-old1 g-new1 g-old2 g-new2; do tar xzf $OUT/g-runs.tgz -C /tmp $r/results.csv; echo "$r: $(python3 scripts/bench/ratios.py /tmp/$r/results.csv G | tr '\n' ' ')"; done
ab_table $OUT/ab.txt | tee $OUT/ab.md
