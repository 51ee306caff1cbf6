#!/bin/bash
# Sixty-first session, call 3 (.device/s61-c, `mksplit4.py .device/s61-c`
# at HEAD 468d64d): G5 at M = 200 with its down GEMM split over 4 along k
# on one 224-token tile against the searched 2 x 112 over 2, both orders,
# checked; ncu's L2 bytes of both down GEMMs.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s61-c
MET=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for v in base k4t224; do
  echo "ncu $v $(timeout 90 ncu --clock-control none --csv --metrics $MET -k regex:ff_ --launch-skip 5 -c 1 $ffrun $D/G5m200-$v --bench 5 2>&1 | grep -E '^"[0-9]+"' | awk -F'","' '{printf "%s=%s ", $13, $15}')"
done > $OUT/ncu.txt
ab_both $D base k4t224 G5m200 0 > $OUT/ab.txt
ab_table $OUT/ab.txt
cat $OUT/ncu.txt
