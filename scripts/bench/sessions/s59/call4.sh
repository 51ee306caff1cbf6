#!/bin/bash
# Fifty-ninth session, call 4 (.device/s59-b: gpcraster.py DIR): single
# GEMMs as HEAD lowers them (-base) and with gpc-raster (-gpc), both orders
# (ab_both: ff-run --check, then medians of 20 graph replays); ncu L2
# request-coalescer counters of S6's down GEMM at M = 440 on the swapped
# 88 x 64 plan, both ways.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s59-b
mkdir -p $OUT
MET=gpu__time_duration.sum,lts__t_bytes.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
for v in base gpc; do
  echo "ncu S6DN440s88-$v $(timeout 60 ncu --clock-control none --csv --metrics $MET -k regex:ff_gemm --launch-skip 3 -c 1 $ffrun $D/S6DN440s88-$v --bench 1 2>&1 | grep -E '^"0"' | awk -F'","' '{printf "%s=%s ", $13, $15}')"
done
for w in S6DN440 S6DN440s88 S6DN560 S2DN300 G8DN300 S3DN440 G4DN440 G6DN440 G9DN440 G5DN560 S6GG440 GEMM40964096; do
  ab_both $D base gpc $w 0
done | tee $OUT/ab.txt
ab_table $OUT/ab.txt
