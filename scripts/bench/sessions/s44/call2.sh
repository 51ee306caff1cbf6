#!/bin/bash
# Forty-fourth session, call 2: S2, S4, S5, S6, S8, G6 and G8 at M = 128
# with their down GEMM on 128 x 64 tiles split over 4 or 8 along k at 6 or
# 8 stages, against the search's plan (.device/s44-sk: splitk64.py DIR).
# ff-run --check of each, then --bench 20 --graph in two rounds (the
# second reversed); memcheck on S5's and S8's 8-stage variants.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s44-sk
W="S2 S4 S5 S6 S8 G6 G8"
vs() { ls $D | sed -n "s/^$1-//p" | sort -r; }
for w in $W; do variants $D $w 0 $(vs $w); done > /tmp/r1
for w in $W; do variants $D $w 0 $(vs $w | tac); done > /tmp/r2
for n in S5-64c4s8 S8-64c8s8; do
  echo "memcheck $n: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/$n --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
done
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| chain | variants | r1 (checks, us) | r2 reversed (checks, us) |"; echo "|---|---|---|---|"
for w in $W; do
  echo "| $w | $(vs $w | tr '\n' ' ')| $(grep "^$w " /tmp/r1 | cut -d' ' -f3-) | $(grep "^$w " /tmp/r2 | cut -d' ' -f3-) |"
done
