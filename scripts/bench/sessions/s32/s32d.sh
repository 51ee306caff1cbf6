#!/bin/bash
# Thirty-second session: the C7-b32 variants of s32d-variants.sh
# (.device/s32d) per call with ff-run --check (fp32 reference, output
# poisoned: the cut row groups' pixels must all be written), memcheck of
# the halo kernels, then in bench.py's CUDA graphs beside cuDNN's chain,
# two rounds.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s32d > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
for v in new h128 h64m2; do
  echo "memcheck $v $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s32d/C7-b32-$v --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
done
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s31c --reps 20 --only C7-b32 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for v in old new h128 h64m2; do
    mkdir -p /tmp/v/$v; ln -sfn $PWD/.device/s32d/C7-b32-$v /tmp/v/$v/C7-b32
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles /tmp/v/$v --reps 100 --only C7-b32 --baselines graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "$v $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v-$round/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
tail -5 /tmp/ab.log
