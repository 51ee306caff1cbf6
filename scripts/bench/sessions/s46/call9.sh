#!/bin/bash
# Forty-sixth session, call 9: racecheck's hazards on S2 and G8 (call 8)
# in detail, with the down GEMM on 4 stages (42f991a's plan) and on 6
# (cb0faac's): .device/s46-st/W-st4, W-st6 (stages.py); the first lines of
# each report.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s46-st
mkdir -p $OUT
for b in S2-st4 S2-st6 G8-st4 G8-st6; do
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report all $ffrun $D/$b --check > $OUT/race-$b.txt 2>&1
  echo "== $b: $(grep -oE "RACECHECK SUMMARY.*|status=[A-Z]+" $OUT/race-$b.txt | tr '\n' ' ')"
  grep -E "hazard|Write|Read|at 0x|in ff_|by thread" $OUT/race-$b.txt | head -12
done
