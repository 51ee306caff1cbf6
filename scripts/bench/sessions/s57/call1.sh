#!/bin/bash
# Fifty-seventh session, call 1 (.device/s57-a: HEAD eeb4554's tables of
# G4, G7, S3, S5, S6, S7 as -base; as -new a test build whose 64-row bins
# take no swapped width that adds a token tile inside the bin): each moved
# bin on both sides of the width's tile edge, both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s57-a
mkdir -p $OUT
for wm in S7:905 S7:930 S7:955 S3:540 S3:570 S5:540 S5:570 S3:590 S3:630 \
          S7:400 S7:440 S7:470 S7:500 S6:660 S6:700 S6:712 S6:750 \
          G4:712 G4:750 G7:712 G7:750 S5:590 S5:630; do
  [ $SECONDS -gt 500 ] && { echo "skip $wm" >> $OUT/skipped.txt; continue; }
  ab_both $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
echo "wall ${SECONDS}s"; cat $OUT/skipped.txt 2>/dev/null
ab_table $OUT/ab.txt
