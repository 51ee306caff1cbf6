#!/bin/bash
# Thirty-second session: the variants of s32e-variants.sh (.device/s32e)
# per call with ff-run --check (fp32 reference, output poisoned), memcheck
# of the new clusters, then each in bench.py's CUDA graphs beside cuDNN's
# chain, two rounds.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s32e > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
for b in C8-b32-m4 C6-b1-m2 C6-b1-n64wm2; do
  echo "memcheck $b $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s32e/$b --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
done
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s32c --reps 20 --only C6-b1 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for b in C8-b32-def C8-b32-m4 C6-b1-def C6-b1-m2 C6-b1-n64w C6-b1-n64wm2; do
    w=${b%-*}; v=${b##*-}
    mkdir -p /tmp/v/$b; ln -sfn $PWD/.device/s32e/$b /tmp/v/$b/$w
    timeout 100 python3 scripts/bench/bench.py --out $OUT/$b-$round --bundles /tmp/v/$b --reps 100 --only $w --baselines graph,ours,ours_graph > $OUT/bench-$b-$round.log 2>&1
    echo "$b $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$b-$round/results.csv')): print(r['baseline'], r['hot_us'], r['rel_err'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
tail -5 /tmp/ab.log
