#!/bin/bash
# Forty-ninth session, call 7 (.device/s49-g: call 5's dyn-G5-m300 and
# dyn-G5-m800, whose first kernels now run swapped on 152- and 200-row
# tiles): ncu (--set full, SASS source counters) of those first kernels
# against F.linear's at the same shapes, as call 1 did before the change:
# what remains of the gap to cuBLAS's 256 x 152 kernel.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-g
S=scripts/bench/sessions/s49
mkdir -p $OUT
for m in 300 800; do
  timeout 200 ncu --clock-control none --set full -k regex:ff_ffn_0_s0 -c 1 -f -o /tmp/ours-$m \
    $ffrun $D/dyn-G5-m$m > /tmp/ncu-ours-$m.log 2>&1 || tail -5 /tmp/ncu-ours-$m.log
  timeout 200 ncu --clock-control none --set full --profile-from-start off -c 1 -f -o /tmp/torch-$m \
    python3 $S/linear_once.py $m 16384 4096 > /tmp/ncu-torch-$m.log 2>&1 || tail -5 /tmp/ncu-torch-$m.log
  for who in ours torch; do
    ncu -i /tmp/$who-$m.ncu-rep --page details --csv > /tmp/$who-$m-details.csv 2>/dev/null
    ncu -i /tmp/$who-$m.ncu-rep --page source --csv --print-source sass > /tmp/$who-$m-source.csv 2>/dev/null
    echo "== $who M = $m"
    python3 $S/ncu_summary.py /tmp/$who-$m-details.csv
    python3 $S/sass_hot.py /tmp/$who-$m-source.csv 12 || true
  done
done 2>&1 | tee $OUT/ncu.txt
