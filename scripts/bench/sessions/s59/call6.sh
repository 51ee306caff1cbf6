#!/bin/bash
# Fifty-ninth session, call 6 (.device/s59-c: gpcraster.py DIR 2 n): single
# GEMMs as HEAD lowers them (-base) and with raster-group-m=0 (-n: n tiles
# fastest), both orders (ab_both); ncu L2 request-coalescer counters of
# S6's swapped 88 x 64 and S2's down GEMM both ways.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s59-c
mkdir -p $OUT
MET=gpu__time_duration.sum,lts__t_bytes.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
for w in S6DN440s88 S2DN300; do for v in base n; do
  echo "ncu $w-$v $(timeout 60 ncu --clock-control none --csv --metrics $MET -k regex:ff_ --launch-skip 3 -c 1 $ffrun $D/$w-$v --bench 1 2>&1 | grep -E '^"[0-9]+"' | awk -F'","' '{printf "%s=%s ", $13, $15}')"
done; done | tee $OUT/ncu.txt
for w in S6DN440s88 S6DN560 S2DN300 G8DN300 S3DN440 G4DN440 G6DN440 G9DN440 G5DN560 S6GG440 GEMM40964096; do
  ab_both $D base n $w 0
done > $OUT/ab.txt
ab_table $OUT/ab.txt
