#!/bin/bash
# Thirty-second session: the variants of s32a-variants.sh (.device/s32a)
# side by side: ff-run per call with --check (fp32 reference, output
# poisoned), memcheck of the new halo kernels, then each bundle in
# bench.py's CUDA graphs beside cuDNN's chain (one process each).
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s32a > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
for v in halo128 halo128m2 halo64m2 halo128n128m2; do
  echo "memcheck $v $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s32a/C8-b32-$v --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+' | tr '\n' ' ')"
done
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p /tmp/one
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s32a/C8-b32-base --reps 20 --only C8-b32 --baselines graph,ours_graph > /dev/null 2>&1
for v in base halo1ring halo128 halo128m2 halo64 halo64m2 halo128n128 halo128n128m2; do
  rm -rf /tmp/one/*; ln -s $PWD/.device/s32a/C8-b32-$v /tmp/one/C8-b32
  timeout 100 python3 scripts/bench/bench.py --out $OUT/$v --bundles /tmp/one --reps 100 --only C8-b32 --baselines graph,ours,ours_graph > $OUT/bench-$v.log 2>&1
  echo "$v rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
done
rm -rf $OUT/*/*.png
tail -12 /tmp/ab.log
