#!/bin/bash
# Thirty-sixth session: the two paper workloads whose plans fit-a-box
# changes at their own M (C4-b1, C8-b1: 1x1 convolutions over 49 pixels on
# 64-row tiles), .device/s36-c (compile-workloads.py at the commit), against
# .device/s35-sk (before it): ff-run --check, compute-sanitizer memcheck,
# and both in CUDA graphs, three rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for w in C4-b1 C8-b1; do
  echo "$w check $($ffrun .device/s36-c/$w --check 2>&1 | grep -oE 'status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  echo "$w memcheck $(timeout 100 compute-sanitizer --tool memcheck $ffrun .device/s36-c/$w 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+' | tr '\n' ' ')"
done
mkdir -p /tmp/o && echo "base=.device/s35-sk fit=.device/s36-c" > /tmp/o/variants
for round in 1 2 3; do
  for v in base=.device/s35-sk fit=.device/s36-c; do
    timeout 100 python3 scripts/bench/bench.py --out /tmp/o/c-${v%%=*}-$round --bundles ${v#*=} --reps 100 --only 'C4-b1,C8-b1' --baselines graph,ours_graph > /tmp/o/bench-${v%%=*}-$round.log 2>&1
    echo "bench ${v%%=*} $round rc=$?"
  done
done
python3 scripts/bench/sessions/s35/variants.py /tmp/o --csv $OUT/ab-conv.csv
