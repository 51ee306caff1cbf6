#!/bin/bash
# Forty-sixth session, call 8: compute-sanitizer synccheck and racecheck on
# S2 and G8 at cb0faac (their down GEMMs on 6-stage split-K rings;
# memcheck ran in call 4), and S2 with approx-div off against on at
# cb0faac (.device/s46-ax2: S2-on, G8-on the defaults, S2-off built with
# --lower-options "approx-div=false").
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s46-ax2
mkdir -p $OUT
{
ab_line $D off on S2 0
for b in S2-on G8-on; do for tool in synccheck racecheck; do
  echo "$tool $b: $(timeout 80 compute-sanitizer --tool $tool $ffrun $D/$b --check 2>&1 | grep -oE "ERROR SUMMARY.*|RACECHECK SUMMARY.*|status=[A-Z]+" | tr '\n' ' ')"
done; done
} 2>&1 | tee $OUT/call8.txt
