#!/bin/bash
# Thirty-sixth session: the racecheck hazards fitbox.sh counted, in full,
# on the fitted bundles and the same kernels before fit-a-box
# (.device/s36-sweep/G5-m16, .device/s36-dyn/S1: compiled before it).
# First run: every hazard was in cuBLAS's kernel (ff-run --check's
# reference). KERNELS=kns=ff_ checks only ours; CHECK= runs them without
# the reference; LIMIT seconds per run (150).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
R=/tmp/r; mkdir -p $R
SPECS=${SPECS:-"s36-fit/G5-m16 16|s36-sweep/G5-m16 16|s36-fitdyn/S1 17|s36-dyn/S1 17|s36-fitdyn/G8 100"}
IFS='|' read -ra specs <<< "$SPECS"
for spec in "${specs[@]}"; do
  set -- $spec
  f=$R/race-$(echo $1 | tr '/' '_')-m$2.txt
  timeout ${LIMIT:-150} compute-sanitizer --tool racecheck ${KERNELS:+--kernel-name $KERNELS} --racecheck-report hazard --print-limit 20 $ffrun .device/$1 --m $2 ${CHECK---check} > $f 2>&1
  echo "== $1 M=$2 rc=$? $(grep -oE 'RACECHECK SUMMARY.*' $f)"
  grep -E "Error|RESULT|exception|Write|Read|at .*ff_|in ff_|Race reported|hazard" $f | sort | uniq -c | sort -rn | head -12
done
tar czf $OUT/race.tgz -C $R .
