#!/bin/bash
# Forty-third session, call 6: S2, S4, S5, S7, S8 and G8 at M = 128 with
# their down GEMM on the plan that ran fastest alone (call 4) against the
# search's (.device/s43-dc: downs_in_chain.py DIR). ff-run --check of
# each, then --bench 20 --graph in two rounds (the second reversed).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-dc
vs() { ls $D | sed -n "s/^$1-//p" | sort; }
for w in S2 S4 S5 S7 S8 G8; do variants $D $w 0 $(vs $w); done > /tmp/r1
for w in S2 S4 S5 S7 S8 G8; do variants $D $w 0 $(vs $w | tac); done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| chain | variants | r1 (checks, us) | r2 reversed (checks, us) |"; echo "|---|---|---|---|"
for w in S2 S4 S5 S7 S8 G8; do
  echo "| $w | $(vs $w | tr '\n' ' ')| $(grep "^$w " /tmp/r1 | cut -d' ' -f3-) | $(grep "^$w " /tmp/r2 | cut -d' ' -f3-) |"
done
