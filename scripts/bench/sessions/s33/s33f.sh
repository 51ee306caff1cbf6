#!/bin/bash
# Thirty-third session: the variants of s33f-variants.sh (.device/s33f) per
# call with ff-run --check (fp32 reference, output poisoned), then each in
# bench.py's CUDA graphs (cuDNN's chain once per workload), two rounds.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s33f > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s32c --reps 20 --only C4-b1 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for d in .device/s33f/*; do
    b=$(basename $d); w=${b%-*}
    base=ours_graph; [ "$round$b" = 1$w-def ] && base=graph,ours_graph
    mkdir -p /tmp/v/$b; ln -sfn $PWD/$d /tmp/v/$b/$w
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$b-$round --bundles /tmp/v/$b --reps 100 --only $w --baselines $base > $OUT/bench-$b-$round.log 2>&1
    echo "$b $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$b-$round/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
tail -16 /tmp/ab.log
