#!/bin/bash
# Fifty-fifth session, call 4 (.device/s55-e, the tables of 4d4c19c, whose
# 13 changed chains are byte-identical to calls 2 and 3's -exp bundles):
# --check at both ends of the 18 bins the change swapped and memcheck on
# four of them.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-e
mkdir -p $OUT
for wm in G10:321 G10:384 G10:385 G10:448 G4:641 G4:704 G5:577 G5:640 G6:577 G6:640 G6:641 G6:704 G8:577 G8:640 G9:257 G9:320 S1:641 S1:704 S1:769 S1:832 S2:257 S2:320 S3:577 S3:640 S3:833 S3:896 S5:833 S5:896 S6:961 S6:1024 S7:577 S7:640 S8:641 S8:704 S8:769 S8:832; do
  echo "$wm $(c $D/${wm%:*} ${wm#*:})"
done 2>&1 | tee $OUT/checks.txt
memcheck $D/G5 601
memcheck $D/S7 577
memcheck $D/S8 770
memcheck $D/G9 260
echo "checks: $(grep -c PASS $OUT/checks.txt) PASS, $(grep -vc PASS $OUT/checks.txt) other"
