#!/bin/bash
# Fifty-fifth session, call 7 (.device/s55-g): G9's and G6's tables with
# 64-row bins to 1024 and no split K over 4 past 640 rows (-x2) against
# the landed ones (-base), both orders; then --check of every plain FFN's
# 64-row-bin table (-f1024 of call 6, -x2) at 769, 850, 930 and 1024 and
# memcheck on two of them.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-g
mkdir -p $OUT
for wm in G9:680 G9:720 G9:800 G9:870 G9:960 G6:870; do
  ab_both $D base x2 ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
for w in G1-f1024 G2-f1024 G4-f1024 G5-f1024 G7-f1024 G8-f1024 G10-f1024 G6-x2 G9-x2; do
  for m in 769 850 930 1024; do echo "$w:$m $(c $D/$w $m)"; done
done 2>&1 | tee $OUT/checks.txt
memcheck $D/G5-f1024 800
memcheck $D/G8-f1024 870
echo "checks: $(grep -c PASS $OUT/checks.txt) PASS, $(grep -vc PASS $OUT/checks.txt) other"
ab_table $OUT/ab.txt
