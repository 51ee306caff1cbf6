#!/bin/bash
# Fifty-ninth session, call 4b (.device/s59-b as call 4): ncu L2 request
# coalescer counters of four of call 4's GEMMs, both lowerings.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || exit 1
D=.device/s59-b
MET=gpu__time_duration.sum,lts__t_bytes.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescable.sum
for w in S6DN440s88 S6DN560 S2DN300 S6DN440; do
  for v in base gpc; do
    echo "ncu $w-$v $(timeout 60 ncu --clock-control none --csv --metrics $MET -k regex:ff_ --launch-skip 3 -c 1 $ffrun $D/$w-$v --bench 1 2>&1 | grep -E '^"[0-9]+"' | awk -F'","' '{printf "%s=%s ", $13, $15}')"
  done
done
