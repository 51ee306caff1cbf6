#!/bin/bash
# Fifty-third session, call 2 (.device/s53-b): the rule as landed (no
# swapped bin estimated slower anywhere in it): S2, S3, S5, S7, S8's
# dynamic bundles (-sw; S7's down GEMM no longer swapped) against the
# bundles before (-base, call 1's), checked at bin edges, both orders at
# points of the swapped bins that call 1 did not time.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s53-b
mkdir -p $OUT
for wm in S7:385 S7:417 S7:512 S2:881 S3:529 S8:769; do
  w=${wm%:*}; m=${wm#*:}
  echo "check $w-sw M=$m $(c $D/$w-sw $m)"
done 2>&1 | tee $OUT/check.txt
for wm in S7:400 S7:450 S7:500 S2:900 S3:450 S5:400 S8:520 S8:700; do
  ab_both $D base sw ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
ab_table $OUT/ab.txt
