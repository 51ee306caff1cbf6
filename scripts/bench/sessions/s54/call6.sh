#!/bin/bash
# Fifty-fourth session, call 6 (.device/s54-d, call 5's -exp tables, which
# the landed swapAtAnyM reproduces byte for byte): --check at the ends of
# the bins the change swapped (a last token tile of one row where a width
# allows) and memcheck on three of them.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s54-d
mkdir -p $OUT
for wm in G5:321 G5:384 G5:577 G5:640 G5:641 G5:704 G6:577 G6:641 G6:704 G8:641 G8:704 S1:641 S1:961 S2:641 S2:833 S3:321 S3:641 S3:769 S3:897 S4:641 S4:833 S5:641 S5:769 S6:705 S6:961 S7:449 S7:641 S8:577 S8:640; do
  echo "$wm $(c $D/${wm%:*}-exp ${wm#*:})"
done 2>&1 | tee $OUT/checks.txt
memcheck $D/G5-exp 649
memcheck $D/S7-exp 481
memcheck $D/S3-exp 641
echo "checks: $(grep -c PASS $OUT/checks.txt) PASS, $(grep -vc PASS $OUT/checks.txt) other"
