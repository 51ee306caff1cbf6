#!/bin/bash
# Sixty-second session, call 2 (.device/s62-b, `mkmc.py .device/s62-b
# --only sw4,su4,su2,su2s6,su4s6,sw4s6 S1:150 S1:180 S1:210 S7:210`): the
# unswapped 128 x 128 split over 2 of S1's and S7's down GEMMs (96 and 80
# CTAs) against swapped two token tiles over 2 or 4 along k, paired in one
# cluster (sw4) or not (su2, su4), at 4 and 6 stages; both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s62-b
for w in S1m180 S1m210 S7m210 S1m150; do
  for v in sw4 su4 su2 sw4s6 su4s6 su2s6; do ab_both $D base $v $w 0; done
done > $OUT/ab.txt
ab_table $OUT/ab.txt
