#!/bin/bash
# Forty-sixth session, call 7: the down GEMMs the search runs on 64 x 128
# tiles split along k on 4-stage rings at M <= 64, at 6 and 8 stages
# (stages64.py, .device/s46-st64/W-mM-stS; st4 is the search's plan at
# cb0faac): S1, S2, S4, S5, S6, S7, S8, G6, G8 at M = 64 and S2, S4, G8
# at 16; each checked once, then timed in two rounds in opposite orders.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s46-st64
mkdir -p $OUT
{
for r in S1-m64 S2-m64 S4-m64 S5-m64 S6-m64 S7-m64 S8-m64 G6-m64 G8-m64 S2-m16 S4-m16 G8-m16; do
  echo "$r check $(c $D/$r-st6) $(c $D/$r-st8) st4 $(t $D/$r-st4) st6 $(t $D/$r-st6) st8 $(t $D/$r-st8) st8 $(t $D/$r-st8) st6 $(t $D/$r-st6) st4 $(t $D/$r-st4)"
done
echo "memcheck S2-m64-st8: $(timeout 120 compute-sanitizer --tool memcheck $ffrun $D/S2-m64-st8 --check 2>&1 | grep -oE "ERROR SUMMARY.*|status=[A-Z]+" | tr '\n' ' ')"
} 2>&1 | tee $OUT/call7.txt
