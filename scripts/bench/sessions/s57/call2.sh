#!/bin/bash
# Fifty-seventh session, call 2 (.device/s57-b: HEAD eeb4554's tables of
# G4, G7, S3, S5, S6, S7 as -base; as -new a build that splits a bin at a
# swapped width's token-tile edge): the -new bundles checked at both ends
# of every part the split makes, then each changed part timed, both orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s57-b
mkdir -p $OUT
for wm in S7:416 S7:417 S7:480 S7:481 S7:920 S7:921 S3:552 S3:553 S3:600 \
          S3:601 S5:552 S5:553 S5:600 S5:601 S6:672 S6:673 S6:720 S6:721 \
          G4:720 G4:721 G7:720 G7:721; do
  echo "edge ${wm%:*} ${wm#*:} $(c $D/${wm%:*}-new ${wm#*:})"
done | tee $OUT/edges.txt
for wm in S7:930 S7:955 S7:440 S7:500 S3:560 S3:570 S3:610 S3:630 S5:560 \
          S5:570 S5:630 S6:690 S6:740 S6:760 G4:712 G7:712; do
  [ $SECONDS -gt 520 ] && { echo "skip $wm" >> $OUT/skipped.txt; continue; }
  ab_both $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
echo "wall ${SECONDS}s"; cat $OUT/skipped.txt 2>/dev/null
grep -c PASS $OUT/edges.txt; grep -v PASS $OUT/edges.txt
ab_table $OUT/ab.txt
