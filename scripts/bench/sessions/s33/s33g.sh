#!/bin/bash
# Thirty-third session: the variants of s33g-variants.sh (.device/s33g) per
# call with ff-run --check (fp32 reference, output poisoned), then each in
# bench.py's CUDA graphs (the CUDA-graph chain once per workload), then ncu durations and DRAM throughput of the default kernels, two rounds.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s33g > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles /tmp/none --reps 20 --only S8 --baselines graph > /dev/null 2>&1
for round in 1 2; do
  for d in .device/s33g/*; do
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
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size
for w in S1 G5; do
  echo "== ncu $w-def"
  ncu --clock-control none --cache-control none --launch-skip 10 --launch-count 2 --metrics $m /tmp/b/bin/ff-run .device/s33g/$w-def --bench 5 2>&1 | grep -E "^  [a-z_0-9]+.*\(|^    [a-z]" | awk '{print $1, $(NF)}'
done
