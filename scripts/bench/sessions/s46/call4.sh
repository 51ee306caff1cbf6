#!/bin/bash
# Forty-sixth session, call 4: the down GEMMs the search runs on 128 x 128
# tiles split over 4 on a 4-stage ring, at 5 and 6 stages (stages.py,
# .device/s46-st/W-stS; st4 is the search's plan, byte-identical to the
# default bundle): S2, S4, S5, S7, G8 at M = 128, two rounds in opposite
# orders (session-lib's variants); memcheck on S2-st6 and G8-st6.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s46-st
mkdir -p $OUT
echo "nsys: $(which nsys 2>&1)"
for b in S2-st6 G8-st6; do
  echo "memcheck $b: $(timeout 120 compute-sanitizer --tool memcheck $ffrun $D/$b --check 2>&1 | grep -oE "ERROR SUMMARY.*|status=[A-Z]+" | tr '\n' ' ')"
done
{
for w in S2 S4 S5 S7 G8; do
  echo "r1 $(variants $D $w 0 st4 st5 st6)"
  echo "r2 $(variants $D $w 0 st6 st5 st4)"
done
} 2>&1 | tee $OUT/call4.txt
