#!/bin/bash
# Fifty-ninth session, call 9 (.device/s59-f: S6's gated GEMM at M = 440,
# the table's 128 x 128 plan (FULL128, 280 tiles, 2.12 waves) and the same
# plan with wider n tiles set by hand: W136 (264 tiles, 2 waves), W144
# (252), W160 (224), W192 (188, 3 stages)). Each --check'ed, then timed
# in CUDA graphs in two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s59-f
mkdir -p $OUT
for n in FULL128 W136 W144 W160 W192; do echo "$n $(c $D/$n) $(t $D/$n)"; done > /tmp/r1
for n in W192 W160 W144 W136 FULL128; do echo "$n $(t $D/$n)"; done > /tmp/r2
cat /tmp/r1 /tmp/r2 | tee $OUT/widths.txt
