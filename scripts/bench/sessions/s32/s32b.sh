#!/bin/bash
# Thirty-second session: the variants of s32b-variants.sh (.device/s32b)
# per call with ff-run --check (fp32 reference, output poisoned), memcheck
# of the new sequences, then in bench.py's CUDA graphs beside cuDNN's
# chain, old / new / nohalo in turn, two rounds.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s32b > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
for b in C5-b1-new C6-b1-new C8-b32-new; do
  echo "memcheck $b $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s32b/$b --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+' | tr '\n' ' ')"
done
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for v in old new nohalo; do
  mkdir -p /tmp/v/$v
  for w in C5-b1 C6-b1 C8-b32; do ln -sfn $PWD/.device/s32b/$w-$v /tmp/v/$v/$w; done
done
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles /tmp/v/old --reps 20 --only C5-b1 --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for v in old new nohalo; do
    timeout 150 python3 scripts/bench/bench.py --out $OUT/$v-$round --bundles /tmp/v/$v --reps 100 --only C5-b1,C6-b1,C8-b32 --baselines graph,ours,ours_graph > $OUT/bench-$v-$round.log 2>&1
    echo "$v $round rc=$? $(python3 -c "
import csv
for r in csv.DictReader(open('$OUT/$v-$round/results.csv')): print(r['workload'], r['baseline'], r['hot_us'], end='; ')")"
  done
done
rm -rf $OUT/*/*.png
tail -6 /tmp/ab.log
