#!/bin/bash
# Thirty-third session, GPU machine: times the bundles of one *-variants.sh
# directory (WORKLOAD-VARIANT): ff-run --check per call (ab.sh: fp32
# reference, output poisoned), then each in bench.py's CUDA graphs, two
# rounds, the CUDA-graph chain beside each workload's default in the first.
#
# usage: time-variants.sh DIR WARM_BUNDLES WARM_ONLY WARM_BASELINES
#   (a warm-up bench.py run first; OUT: where the results go)
set -u
dir=$1
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b $dir > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles $2 --reps 20 --only "$3" --baselines $4 > /dev/null 2>&1
for round in 1 2; do
  for d in $dir/*; do
    b=$(basename $d); w=${b%-*}
    base=ours_graph; [ "$round$b" = 1$w-def ] && base=graph,ours_graph
    mkdir -p /tmp/v/$b; ln -sfn $PWD/$d /tmp/v/$b/$w
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$b-$round --bundles /tmp/v/$b --reps 100 --only "$w\$" --baselines $base > $OUT/bench-$b-$round.log 2>&1
    echo "$b $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$b-$round/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
tail -16 /tmp/ab.log
