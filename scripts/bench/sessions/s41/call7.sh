#!/bin/bash
# Forty-first session, call 7: which kernel the zeroed A ring speeds up.
# ncu (--clock-control none) on S3-m16 and the dynamic S3 at M = 16, each
# as whole-tile slots (-old), slots sized to the box (-cmp) and those
# zeroed once (-zero) (.device/s41-n7: call 5's bundles), one launch each.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
d=scripts/bench/sessions/s41
. scripts/bench/sessions/s41/lib.sh
METRICS=$(ncu_metric_list)
mkdir -p $OUT
args=()
for b in S3-m16 DS3; do
  mm=(); [ $b = DS3 ] && mm=(--m 16)
  for v in old cmp zero; do
    timeout 100 ncu --clock-control none --csv --page raw --metrics $METRICS -k regex:ff_ \
      $ffrun .device/s41-n7/$b-$v "${mm[@]}" > $OUT/$b-$v.csv 2> /tmp/ncu-$b-$v.err || tail -5 /tmp/ncu-$b-$v.err
    args+=($b-$v $OUT/$b-$v.csv)
  done
done
python3 $d/ncu_metrics.py "${args[@]}" | tee $OUT/table.md
