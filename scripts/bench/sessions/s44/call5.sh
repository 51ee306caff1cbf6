#!/bin/bash
# Forty-fourth session, call 5: why S7's dynamic chain ran 137 us at
# M = 257 and 119 at 384 on one grid (call 4's ncu: its gate|up kernel
# 80.8 against 65.1 us, the same DRAM bytes). ff-run in graphs across the
# 257-512 bins of S7 (.device/s43-dyn8/S7-new) and of S2, S3, S5
# (.device/s43-dyn, -new); ncu (s41's metric list and table: tensor pipe,
# L2 hit rate, top stalls) on S7 at M = 257, 264, 320, 384, one launch.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
# s41's lib for ncu_metric_list; session-lib's t and c replace its own.
. scripts/bench/sessions/s41/lib.sh
. scripts/bench/session-lib.sh
mkdir -p $OUT
scan() { echo "$1 (us): $(for m in ${@:2}; do echo -n "$m:$(t $1 $m) "; done)"; }
{ scan .device/s43-dyn8/S7-new 256 257 258 264 272 288 320 352 384 448 512
  for w in S2 S3 S5; do scan .device/s43-dyn/$w-new 256 257 264 320 384 512; done; } | tee $OUT/scan.txt
METRICS=$(ncu_metric_list)
args=()
for m in 257 264 320 384; do
  timeout 100 ncu --clock-control none --csv --page raw --metrics $METRICS -k regex:ff_ \
    $ffrun .device/s43-dyn8/S7-new --m $m > $OUT/s7-$m.csv 2> /tmp/ncu-$m.err || tail -5 /tmp/ncu-$m.err
  args+=(M$m $OUT/s7-$m.csv)
done
python3 scripts/bench/sessions/s41/ncu_metrics.py "${args[@]}" | tee $OUT/table.md
