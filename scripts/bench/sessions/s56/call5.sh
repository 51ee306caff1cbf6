#!/bin/bash
# Fifty-sixth session, call 5 (.device/s56-f: the dynamic-M tables of the
# landed form, plan-diff's new side against HEAD, -new; HEAD's G10, S2, S4,
# S5, -base): the bins it moves that calls 2 and 4 did not time, both
# orders; ff-run --check at both ends of every bin whose kernel changes;
# memcheck on G5 at 350 and G4 at 930 (192-token swapped tiles).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s56-f
mkdir -p $OUT
for wm in G10:870 G10:1500 S2:480 S4:930 S5:540; do
  ab_both $D base new ${wm%:*} ${wm#*:}
done 2>&1 | tee $OUT/ab.txt
for wm in G10:833,896,1025,2048 G4:833,896,897,960,2049,4096,4097,8192 \
          G5:321,384,513,576,641,704,705,768 G6:705,768 G7:641,704 \
          G8:321,384,641,704,705,768,833,896 GEMM-4096:705,768 \
          GEMM-8192:257,320,577,640,641,704 S1:833,896,897,960 S2:449,512 \
          S3:513,576,705,768 S4:897,960 S5:513,576 S7:833,896 \
          S8:513,576,641,704,705,768,833,896; do
  w=${wm%:*}
  for m in ${wm#*:}; do m=${m//,/ }; for mm in $m; do echo "check $w $mm $(c $D/$w-new $mm)"; done; done
done 2>&1 | tee $OUT/checks.txt
echo "checks: $(grep -c PASS $OUT/checks.txt) PASS, $(grep -vc PASS $OUT/checks.txt) other"
memcheck $D/G5-new 350 | tee $OUT/memcheck.txt
memcheck $D/G4-new 930 | tee -a $OUT/memcheck.txt
ab_table $OUT/ab.txt
