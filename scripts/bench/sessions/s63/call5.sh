#!/bin/bash
# Sixty-third session, call 5: where a small fused kernel spends its time.
# ncu (clock control off, full set with PC sampling every 32 cycles) on one
# launch of G3's sequence (.device/s63-fid/G3-r0, two kernels) and fused
# plans (G3-r1: c4 64x128; C3-b1-r1: c4 64x64) and G1's and G2's fused
# defaults (.device/s63-std); per kernel the duration and the warp-state
# samples per SASS instruction ($OUT/NAME.src.csv) for stall_by_op.py.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p $OUT
for b in .device/s63-fid/G3-r0 .device/s63-fid/G3-r1 .device/s63-fid/C3-b1-r1 .device/s63-std/G1 .device/s63-std/G2; do
  n=$(basename $b); c=1; [ $n = G3-r0 ] && c=2
  timeout 150 ncu --clock-control none --set full --warp-sampling-interval 0 -k regex:ff_ --launch-skip 6 -c $c \
    -o /tmp/$n -f $ffrun $b --bench 3 > /tmp/$n.log 2>&1 || tail -5 /tmp/$n.log
  ncu -i /tmp/$n.ncu-rep --page source --csv --print-source sass > $OUT/$n.src.csv 2>&1
  ncu -i /tmp/$n.ncu-rep --page details --csv > $OUT/$n.details.csv 2>&1
  echo "$n $(grep -h '"Duration"' $OUT/$n.details.csv | awk -F'","' '{print $(NF-0)}' | tr -d '"\n' ) | $(wc -c < $OUT/$n.src.csv) bytes"
done
tar czf $OUT/ncu.tgz -C $OUT $(cd $OUT && ls *.csv) && rm -f $OUT/*.csv
