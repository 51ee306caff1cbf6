#!/bin/bash
# Sixty-second session, call 1 (.device/s62-a, `mkmc.py .device/s62-a` as
# listed in README.md): split-K GEMMs whose split CTAs also share a
# multicast operand (clusters [2, 1, 2, 1], [1, 2, 2, 1], [2, 1, 4, 1]),
# each against the searched bundle, both orders, checked; memcheck and
# ncu's L2 bytes of G5's down GEMM at M = 210 on both.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s62-a
for w in G5m150 G5m180 G5m210 S3m150 S3m180 S3m210 GEMM-4096m150 GEMM-4096m180 GEMM-4096m210; do
  ab_both $D base mc $w 0
done > $OUT/ab-mc.txt
for w in GEMM-8192m150 GEMM-8192m210; do ab_both $D base mc2 $w 0; done >> $OUT/ab-mc.txt
ab_table $OUT/ab-mc.txt
{ memcheck $D/G5m210-mc; memcheck $D/G8m210-mcn; } | tee $OUT/memcheck.txt
MET=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for v in base mc; do
  echo "ncu G5m210-$v $(timeout 90 ncu --clock-control none --csv --metrics $MET -k regex:ff_ --launch-skip 5 -c 1 $ffrun $D/G5m210-$v --bench 5 2>&1 | grep -E '^"[0-9]+"' | awk -F'","' '{printf "%s=%s ", $13, $15}')"
done | tee $OUT/ncu.txt
for w in G8m210 S2m210 S4m210 S5m210 S1m180 S7m210; do
  for v in mcn sw2 sw4; do ab_both $D base $v $w 0; done
done > $OUT/ab-n.txt
ab_table $OUT/ab-n.txt
